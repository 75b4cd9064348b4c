import { spawn } from "node:child_process";
import { once } from "node:events";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { apiPathHasDotSegment, bodyLimit, LINGER_MS, listenHost, SIGN_IN_BODY_LIMIT } from "./server.mjs";
import { pumpBody } from "../tests/support/body-pump.ts";
import { maxChatBodyBytes, maxImportBytes } from "../lib/api/body-limits.mjs";

describe("where the server listens", () => {
  it("listens on loopback when HOST is not set, and on any loopback address it names", () => {
    expect(listenHost({})).toEqual({ host: "127.0.0.1" });
    // A misspelt mode would otherwise be open mode without a word.
    expect(listenHost({ HINTLINE_AUTH: "account" }).error).toMatch(/HINTLINE_AUTH="account" is not a mode/);
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"])
      expect(listenHost({ HOST: host })).toEqual({ host });
  });

  it("refuses an address open to the network without a token, unless the operator says so", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "example.test"]) {
      expect(listenHost({ HOST: host }).error).toMatch(
        /refusing to listen on .* without an access token.*HINTLINE_AUTH_TOKEN.*HINTLINE_ALLOW_OPEN=1/s,
      );
      expect(listenHost({ HOST: host, HINTLINE_AUTH_TOKEN: "t" })).toEqual({ host });
      expect(listenHost({ HOST: host, HINTLINE_AUTH: "accounts" })).toEqual({ host });
      expect(listenHost({ HOST: host, HINTLINE_AUTH: "account" }).error).toBeDefined();
      expect(listenHost({ HOST: host, HINTLINE_ALLOW_OPEN: "1" })).toEqual({ host });
      expect(listenHost({ HOST: host, HINTLINE_ALLOW_OPEN: "yes" }).error).toBeDefined();
    }
  });

  it("lets sign-in and unauthenticated requests send a small body only", () => {
    const token = { HINTLINE_AUTH_TOKEN: "t" };
    expect(bodyLimit("/api/auth/sign-in", {}, {})).toBe(SIGN_IN_BODY_LIMIT);
    expect(bodyLimit("/api/chat", { authorization: "Bearer x" }, token)).toBeGreaterThan(32 * 1024 * 1024);
    expect(bodyLimit("/api/chat", { cookie: "a=1; hintline_session=x" }, token)).toBeGreaterThan(32 * 1024 * 1024);
    expect(bodyLimit("/api/chat", {}, token)).toBe(SIGN_IN_BODY_LIMIT);
    expect(bodyLimit("/api/chat", {}, {})).toBeGreaterThan(32 * 1024 * 1024);
    const accounts = { HINTLINE_AUTH: "accounts" };
    expect(bodyLimit("/api/auth/sign-up/email", {}, accounts)).toBe(SIGN_IN_BODY_LIMIT);
    expect(bodyLimit("/api/chat", { cookie: "hintline_session=x" }, accounts)).toBe(SIGN_IN_BODY_LIMIT);
    expect(bodyLimit("/api/chat", { cookie: "a=1; hintline.session_token=x" }, accounts)).toBeGreaterThan(
      32 * 1024 * 1024,
    );
    expect(bodyLimit("/api/chat", { cookie: "__Secure-hintline.session_token=x" }, accounts)).toBeGreaterThan(
      32 * 1024 * 1024,
    );
  });
});

describe("the body ceilings", () => {
  /** The largest chat message the routes take: 100,000 characters of 3 UTF-8 bytes, 4 attachments of 8 MiB whose filenames of 255 characters are sent \u-escaped. */
  function largestChatBody(): number {
    const file = {
      type: "file",
      mediaType: "application/pdf",
      filename: "\u0001".repeat(255),
      url: `data:application/pdf;base64,${"A".repeat(Math.ceil((8 * 1024 * 1024) / 3) * 4)}`,
    };
    const message = {
      id: "m".repeat(64),
      role: "user",
      parts: [{ type: "text", text: "語".repeat(100_000) }, file, file, file, file],
    };
    const body = {
      id: "c".repeat(64),
      message,
      timezone: "America/Argentina/ComodRivadavia",
      mode: "build",
      workspaceId: "w".repeat(64),
      model: "openai/gpt-4o",
    };
    return Buffer.byteLength(JSON.stringify(body));
  }

  it("lets the largest chat message through every layer: 4 attachments of 8 MiB and 100,000 characters", async () => {
    const largest = largestChatBody();
    expect(largest).toBeLessThanOrEqual(maxChatBodyBytes({}));
    // The server in front of Next.js, and the body Next.js buffers for proxy.ts, let through more than any route takes.
    for (const env of [
      {},
      { HINTLINE_MAX_IMPORT_BYTES: String(1024 * 1024) },
      { HINTLINE_MAX_ATTACHMENTS: "6", HINTLINE_MAX_ATTACHMENT_BYTES: String(16 * 1024 * 1024) },
    ]) {
      expect(bodyLimit("/api/chat", {}, env)).toBeGreaterThan(Math.max(maxChatBodyBytes(env), maxImportBytes(env)));
    }
    const config = path.join(import.meta.dirname, "../next.config.mjs");
    const { default: nextConfig } = (await import(config)) as {
      default: { experimental: { proxyClientMaxBodySize: number } };
    };
    expect(nextConfig.experimental.proxyClientMaxBodySize).toBeGreaterThan(
      Math.max(maxChatBodyBytes(), maxImportBytes()),
    );
  });
});

describe("API paths with dot segments", () => {
  it("finds plain and percent-encoded dot segments in API paths", () => {
    for (const target of [
      "/api/w/knowledge/a/%2e%2e/b.md",
      "/api/x/%2E%2E",
      "/api/x/.%2e/y",
      "/api/x/%2e/y",
      "/api/x/../y",
      "/api/x/./y",
      "/api/x/..?q=1",
    ]) {
      expect(apiPathHasDotSegment(target)).toBe(true);
    }
  });

  it("leaves other paths alone", () => {
    for (const target of [
      "/api/w/knowledge/a..b.md",
      "/api/x/.hidden",
      "/api/x/%2e%2e%2e",
      "/c/%2e%2e/x",
      "/api/x?q=/../",
      "/apix/..",
      "/api/a%2f%2e%2e%2fb",
      "/api/conversations/%2E%2E%2Fseed",
    ]) {
      expect(apiPathHasDotSegment(target)).toBe(false);
    }
  });
});

describe("a body over the limit", () => {
  // A server that answers like scripts/server.mjs before Next.js (what prepareRequest does not answer gets a 200), in a
  // process of its own, so that it goes on while the client below is busy.
  async function listen() {
    const code = `
      import http from "node:http";
      import { prepareRequest } from ${JSON.stringify(path.join(import.meta.dirname, "server.mjs"))};
      const server = http.createServer((req, res) => {
        if (prepareRequest(req, res)) return;
        req.resume();
        req.on("end", () => res.end("ok"));
      });
      server.listen(0, "127.0.0.1", () => console.log(server.address().port));`;
    const child = spawn(process.execPath, ["--input-type=module", "-e", code], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    const [line] = await once(child.stdout, "data");
    return { child, port: Number(String(line).trim()) };
  }

  /**
   * Sends a chunked body that does not stop by itself, and settles when the connection is over: with the answer that
   * came (a write failing after a complete answer does not take it away, as in a browser), or with none.
   */
  function upload(port: number, total: number) {
    return new Promise<{ status: number; body: string; error?: string }>((resolve) => {
      let status = 0;
      let body = "";
      let error: string | undefined;
      const request = http.request(
        {
          host: "127.0.0.1",
          port,
          method: "POST",
          path: "/api/auth/sign-in",
          headers: { "content-type": "application/json" },
        },
        (response) => {
          status = response.statusCode ?? 0;
          response.setEncoding("utf8");
          response.on("data", (d) => (body += d));
          response.on("error", () => {});
        },
      );
      request.on("error", (e) => (error = String(e)));
      request.on("close", () => resolve({ status, body, error }));
      pumpBody(request, total, 64 * 1024);
      // A busy client: by the time it looks, the answer and whatever followed it have both arrived.
      setTimeout(() => {
        const until = Date.now() + 300;
        while (Date.now() < until);
      }, 5);
    });
  }

  // Closing a connection with unread data resets it, and a client still sending then loses the answer it has not read.
  it("answers 413 to a client still sending, every time", async () => {
    const { child, port } = await listen();
    try {
      for (let attempt = 0; attempt < 8; attempt++) {
        const answer = await upload(port, 64 * 1024 * 1024);
        expect(answer.status, answer.error).toBe(413);
        expect(JSON.parse(answer.body).error.code).toBe("payload_too_large");
      }
    } finally {
      child.kill();
    }
  }, 60_000);

  it("closes the connection LINGER_MS after the 413 on a client that goes on sending anyway", async () => {
    const { child, port } = await listen();
    try {
      const socket = net.connect({ host: "127.0.0.1", port, allowHalfOpen: true });
      socket.write("POST /api/auth/sign-in HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n");
      let answer = "";
      let answeredAt = 0;
      socket.on("data", (d) => {
        answer += d;
        answeredAt ||= Date.now();
      });
      socket.on("error", () => {});
      const chunk = `10000\r\n${"a".repeat(0x10000)}\r\n`;
      const pump = setInterval(() => socket.writable && socket.write(chunk), 20);
      // A write after the close fails with EPIPE: only the close matters here.
      await new Promise((resolve) => socket.once("close", resolve));
      clearInterval(pump);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(Date.now() - answeredAt).toBeGreaterThanOrEqual(LINGER_MS - 100);
      expect(Date.now() - answeredAt).toBeLessThan(LINGER_MS + 2000);
    } finally {
      child.kill();
    }
  }, 30_000);
});
