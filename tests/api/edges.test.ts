// The edges of the HTTP API (issue #14, items 4 and 6; issue #24): foreign Host headers (DNS rebinding), paths Next.js
// would redirect, unknown API paths, JSON nested too deep, bodies that are not UTF-8 or never end, a full disk, limits
// that an export must fit, and retries of anything but the latest message. Each refusal is a 4xx JSON error naming the problem and changes nothing.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { pumpBody } from "../support/body-pump.ts";
import { migrate } from "../support/db-global-setup.ts";
import { chat, getJson, postChat, stopReply } from "../support/chat-client.ts";
import {
  type ConversationView,
  expectApiError,
  jsonRequest,
  messageText,
  pollUntil,
  readUntil,
  settledSnapshot,
  snapshotDatabase,
} from "./helpers.ts";

type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string };

/** A request sent byte for byte as given (fetch would resolve "%2e%2e" and refuses to set Host). */
function rawRequest(
  baseUrl: string,
  {
    method = "GET",
    path: requestPath,
    headers = {},
    body,
  }: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string },
): Promise<RawResponse> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: url.hostname, port: url.port, method, path: requestPath, headers },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (d) => (text += d));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }));
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

function expectRawError(response: RawResponse, status: number, code: string, message: RegExp): void {
  expect({ status: response.status, body: response.body.slice(0, 300) }).toMatchObject({ status });
  expect(response.headers["content-type"]).toMatch(/application\/json/);
  expect(response.headers.location).toBeUndefined();
  expect(JSON.parse(response.body)).toEqual({ error: { code, message: expect.stringMatching(message) } });
}

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
const chatBody = (id: string, messageId: string, text: string) =>
  JSON.stringify({ id, message: { id: messageId, role: "user", parts: [{ type: "text", text }] } });

describe("routes at the edges", () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer({ env: { HINTLINE_ALLOWED_HOSTS: "chat.example.test" } });
    expect(
      (await chat(server.url, { conversationId: "seed", messageId: "seed-1", text: "hello" })).response.status,
    ).toBe(200);
    const task = await fetch(`${server.url}/api/conversations/seed/tasks`, jsonRequest("POST", { subject: "keep me" }));
    expect(task.status).toBe(201);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a request whose Host is another site's name (DNS rebinding), and serves allowed hosts", async () => {
    const before = await settledSnapshot(server.databaseUrl);
    const attacker = { host: "attacker.example", origin: "http://attacker.example" };
    for (const [method, requestPath, body] of [
      ["GET", "/api/conversations", undefined],
      ["GET", "/api/conversations/seed/export", undefined],
      ["GET", "/", undefined],
      ["DELETE", "/api/conversations/seed", undefined],
      ["POST", "/api/chat", chatBody("seed", "rebound", "hi")],
    ] as const) {
      const headers: Record<string, string> = body ? { ...attacker, "content-type": "application/json" } : attacker;
      const response = await rawRequest(server.url, { method, path: requestPath, headers, body });
      expectRawError(response, 421, "host_not_allowed", /attacker\.example.*HINTLINE_ALLOWED_HOSTS/);
    }
    expect(snapshotDatabase(server.databaseUrl)).toEqual(before);
    const port = new URL(server.url).port;
    for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, "chat.example.test"]) {
      const response = await rawRequest(server.url, { path: "/api/conversations", headers: { host } });
      expect({ host, status: response.status }).toEqual({ host, status: 200 });
    }
  });

  it("never redirects an API request: dot segments and trailing slashes are a 400, and nothing is deleted", async () => {
    const before = await settledSnapshot(server.databaseUrl);
    for (const requestPath of [
      "/api/conversations/seed/tasks/%2e%2e",
      "/api/conversations/seed/tasks/%2E%2E",
      "/api/conversations/seed/tasks/..",
      "/api/conversations/seed/tasks/1/%2e%2e/",
      "/api/conversations/seed/",
      "/api/conversations/seed/tasks/1/",
    ]) {
      const response = await rawRequest(server.url, { method: "DELETE", path: requestPath });
      expectRawError(response, 400, "bad_request", /must not end with a slash/);
    }
    expect(snapshotDatabase(server.databaseUrl)).toEqual(before);
    expect((await getJson<ConversationView>(`${server.url}/api/conversations/seed`)).status).toBe(200);
    // Pages still lose a trailing slash the usual way.
    const page = await rawRequest(server.url, { path: "/c/seed/?x=1" });
    expect({ status: page.status, location: page.headers.location }).toEqual({ status: 308, location: "/c/seed?x=1" });
  });

  it("answers an API path with an empty segment or a backslash with a JSON 400, never a 308, and deletes nothing", async () => {
    const before = await settledSnapshot(server.databaseUrl);
    for (const requestPath of [
      "/api//conversations/seed",
      "/api/conversations//seed",
      "//api/conversations/seed",
      "/api/conversations/seed//tasks/1",
      "/api/conversations\\seed",
    ]) {
      const response = await rawRequest(server.url, { method: "DELETE", path: requestPath });
      if (requestPath.startsWith("//")) {
        // Not an API path: a page path, which Next.js cleans up with a redirect on this site (never to another).
        expect({ status: response.status, location: response.headers.location }).toEqual({
          status: 308,
          location: "/api/conversations/seed",
        });
        continue;
      }
      expectRawError(response, 400, "bad_request", /must not contain "\/\/" or "\\"/);
    }
    expect(snapshotDatabase(server.databaseUrl)).toEqual(before);
  });

  it("answers an unknown API path with the API's JSON 404 for every method, not an HTML page", async () => {
    for (const [method, requestPath] of [
      ["GET", "/api/nothing-here"],
      ["POST", "/api/nothing-here"],
      ["DELETE", "/api/conversations/seed/nothing/deeper"],
      ["PATCH", "/api/v2/conversations"],
    ] as const) {
      const body = method === "POST" || method === "PATCH" ? "{}" : undefined;
      const response = await rawRequest(server.url, {
        method,
        path: requestPath,
        headers: { "content-type": "application/json" },
        body,
      });
      expectRawError(response, 404, "not_found", /^There is no API route at \/api\//);
    }
    const page = await rawRequest(server.url, { path: "/no-such-page" });
    expect({ status: page.status, type: page.headers["content-type"] }).toEqual({
      status: 404,
      type: expect.stringMatching(/text\/html/),
    });
  });

  it("answers JSON nested 5,000 levels deep with a 400", async () => {
    const before = await settledSnapshot(server.databaseUrl);
    // Task metadata nested this deep used to answer 500.
    const task = await fetch(
      `${server.url}/api/conversations/seed/tasks`,
      jsonRequest("POST", `{"subject":"a","metadata":${nested(5_000)}}`),
    );
    expect(await expectApiError(task, 400, "invalid_json")).toMatch(/more than 100 levels deep/);
    const message = `{"id":"seed","message":{"id":"deep","role":"user","parts":[{"type":"text","text":"x"}],"metadata":${nested(5_000)}}}`;
    expect(
      await expectApiError(await fetch(`${server.url}/api/chat`, jsonRequest("POST", message)), 400, "invalid_json"),
    ).toMatch(/levels deep/);
    const settings = await fetch(
      `${server.url}/api/conversations/seed`,
      jsonRequest("PATCH", `{"settings":${nested(5_000)}}`),
    );
    expect(await expectApiError(settings, 400, "invalid_json")).toMatch(/levels deep/);
    const brackets = await fetch(
      `${server.url}/api/conversations/import`,
      jsonRequest("POST", `${"[".repeat(200_000)}${"]".repeat(200_000)}`),
    );
    expect(await expectApiError(brackets, 400, "invalid_json")).toMatch(/levels deep/);
    expect(snapshotDatabase(server.databaseUrl)).toEqual(before);
  });

  it("refuses a body in another charset (415) or with bytes that are not UTF-8 (400) instead of storing it garbled", async () => {
    const before = await settledSnapshot(server.databaseUrl);
    const latin1 = Buffer.from(chatBody("seed", "latin1", "café crème"), "latin1");
    const declared = await fetch(`${server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=latin1" },
      body: latin1,
    });
    expect(await expectApiError(declared, 415, "unsupported_media_type")).toMatch(/UTF-8.*charset=latin1/);
    const quoted = await fetch(`${server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": 'application/json; charset="ISO-8859-1"' },
      body: latin1,
    });
    expect(await expectApiError(quoted, 415, "unsupported_media_type")).toMatch(/charset=iso-8859-1/);
    const undeclared = await fetch(`${server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: latin1,
    });
    expect(await expectApiError(undeclared, 400, "bad_request")).toMatch(/not valid UTF-8/);
    expect(snapshotDatabase(server.databaseUrl)).toEqual(before);
    const utf8 = await fetch(`${server.url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json; charset=UTF-8" },
      body: Buffer.from(chatBody("utf8", "utf8-1", "café crème"), "utf8"),
    });
    expect(utf8.status).toBe(200);
    await utf8.text();
    const stored = (await getJson<ConversationView>(`${server.url}/api/conversations/utf8`)).body;
    expect(messageText(stored.messages[0])).toBe("café crème");
  });
});

describe("retrying a message", () => {
  let server: AppServer;

  beforeAll(async () => {
    server = await startAppServer();
    for (const [id, text] of [
      ["m1", "write 3 words about rain"],
      ["m2", "write 4 words about snow"],
    ] as const) {
      expect((await chat(server.url, { conversationId: "r", messageId: id, text })).response.status).toBe(200);
    }
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("refuses to retry a message that is not the latest (409) and changes nothing", async () => {
    const before = await settledSnapshot(server.databaseUrl);
    const response = await postChat(server.url, {
      conversationId: "r",
      messageId: "m1",
      text: "write 3 words about rain",
    });
    expect(await expectApiError(response, 409, "conflict")).toMatch(/m1 is not your latest message/);
    const changed = await postChat(server.url, { conversationId: "r", messageId: "m1", text: "something else" });
    expect(await expectApiError(changed, 409, "conflict")).toMatch(/m1/);
    expect(await settledSnapshot(server.databaseUrl)).toEqual(before);
  });

  it("refuses a retry of the latest message with different text (409), and regenerates only its reply otherwise", async () => {
    const before = await settledSnapshot(server.databaseUrl);
    const changed = await postChat(server.url, {
      conversationId: "r",
      messageId: "m2",
      text: "write 9 words about fog",
    });
    expect(await expectApiError(changed, 409, "conflict")).toMatch(/m2 is stored with different text/);
    expect(await settledSnapshot(server.databaseUrl)).toEqual(before);
    const { messages: old } = (await getJson<ConversationView>(`${server.url}/api/conversations/r`)).body;
    const retry = await chat(server.url, { conversationId: "r", messageId: "m2", text: "write 4 words about snow" });
    expect(retry.response.status).toBe(200);
    expect(retry.text.trim().split(/\s+/)).toHaveLength(4);
    const { messages } = (await getJson<ConversationView>(`${server.url}/api/conversations/r`)).body;
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
    expect(messages.slice(0, 3)).toEqual(old.slice(0, 3));
    expect(messages[3]!.id).not.toBe(old[3]!.id);
  });
});

describe("what Hintline exports it imports", () => {
  let server: AppServer;
  /** A server whose import limit is small enough to reach by chatting. */
  let small: AppServer;
  const IMPORT_LIMIT = 300_000;

  beforeAll(async () => {
    [server, small] = await Promise.all([
      startAppServer(),
      startAppServer({ env: { HINTLINE_MAX_IMPORT_BYTES: String(IMPORT_LIMIT) } }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([server?.stop(), small?.stop()]);
  }, 60_000);

  async function roundTrip(baseUrl: string, id: string): Promise<{ exported: Response; imported?: Response }> {
    const exported = await fetch(`${baseUrl}/api/conversations/${id}/export`);
    if (exported.status !== 200) return { exported };
    const imported = await fetch(`${baseUrl}/api/conversations/import`, jsonRequest("POST", await exported.text()));
    return { exported, imported };
  }

  it("caps the tasks a conversation can hold at what an import accepts (5,000), racing creates included, and round-trips the maximum", async () => {
    // 4,990 tasks come in by one import; then 25 creates race for the last 10 places: exactly 10 are taken.
    const seeded = await fetch(
      `${server.url}/api/conversations/import`,
      jsonRequest("POST", {
        version: 1,
        conversation: {
          id: "tasks",
          messages: [
            { id: "t-u", role: "user", parts: [{ type: "text", text: "hello" }] },
            { id: "t-a", role: "assistant", parts: [{ type: "text", text: "Hello." }] },
          ],
          tasks: Array.from({ length: 4_990 }, (_, i) => ({
            id: String(i + 1),
            subject: `task ${i}`,
            status: "pending",
          })),
        },
      }),
    );
    expect(seeded.status).toBe(201);
    const { id: tasksId } = (await seeded.json()) as { id: string };
    const create = (i: number) =>
      fetch(`${server.url}/api/conversations/${tasksId}/tasks`, jsonRequest("POST", { subject: `task ${i}` })).then(
        async (r) => {
          await r.arrayBuffer();
          return r.status;
        },
      );
    const statuses = await Promise.all(Array.from({ length: 25 }, (_, i) => create(4_990 + i)));
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 409)).toHaveLength(15);
    const over = await fetch(
      `${server.url}/api/conversations/${tasksId}/tasks`,
      jsonRequest("POST", { subject: "one too many" }),
    );
    expect(await expectApiError(over, 409, "conflict")).toMatch(/already has 5,000 tasks/);
    // The agent's TaskCreate meets the same cap (the rest of that reply, over a 5,000-line task list, is not waited for).
    const stop = new AbortController();
    const agent = await postChat(server.url, {
      conversationId: tasksId,
      text: "add tasks: one more",
      signal: stop.signal,
    });
    expect(agent.status).toBe(200);
    const chunks = await readUntil(agent, (chunk) => chunk.type === "tool-output-error" || chunk.type === "finish");
    stop.abort();
    await stopReply(server.url, tasksId);
    expect(chunks.at(-1)).toMatchObject({
      type: "tool-output-error",
      errorText: expect.stringMatching(/already has 5,000 tasks/),
    });
    await pollUntil(
      async () =>
        (await getJson<ConversationView>(`${server.url}/api/conversations/${tasksId}`)).body.messages.at(-1)?.metadata
          ?.status,
      (status) => status !== "streaming",
      30_000,
    );
    const tasks = (await getJson<unknown[]>(`${server.url}/api/conversations/${tasksId}/tasks`)).body;
    expect(tasks).toHaveLength(5_000);
    const { exported, imported } = await roundTrip(server.url, tasksId);
    expect(exported.status).toBe(200);
    expect(imported!.status).toBe(201);
    const { id } = (await imported!.json()) as { id: string };
    expect((await getJson<unknown[]>(`${server.url}/api/conversations/${id}/tasks`)).body).toHaveLength(5_000);
  });

  it("refuses a new turn once a conversation holds what an import accepts (20,000 messages), and round-trips it", async () => {
    const messages = Array.from({ length: 19_998 }, (_, i) => ({
      id: `m${i}`,
      role: i % 2 ? "assistant" : "user",
      parts: [{ type: "text", text: "x" }],
    }));
    const created = await fetch(
      `${server.url}/api/conversations/import`,
      jsonRequest("POST", { version: 1, conversation: { id: "big", messages } }),
    );
    expect(created.status).toBe(201);
    const before = await settledSnapshot(server.databaseUrl);
    const refused = await postChat(server.url, { conversationId: "big", text: "one more" });
    expect(await expectApiError(refused, 409, "conflict")).toMatch(
      /holds 19,998 messages, the most one can \(20,000\)/,
    );
    const after = await settledSnapshot(server.databaseUrl);
    for (const table of Object.keys(before))
      expect({ table, rows: after[table] }).toEqual({ table, rows: before[table] });
    const { exported, imported } = await roundTrip(server.url, "big");
    expect(exported.status).toBe(200);
    expect(imported!.status).toBe(201);
  });

  it("refuses an export that the import would refuse, saying why, and imports every export it gives", async () => {
    for (let i = 0; i < 4; i++) {
      const reply = await chat(small.url, {
        conversationId: "long",
        text: `write 3 words ${"about rivers ".repeat(7_000)}`,
      });
      expect(reply.response.status).toBe(200);
      const { exported, imported } = await roundTrip(small.url, "long");
      if (exported.status === 200) expect(imported!.status).toBe(201);
      else
        expect(await expectApiError(exported, 413, "payload_too_large")).toMatch(
          /export is 0\.\d MB, over the 0\.3 MB an import accepts/,
        );
    }
    expect((await fetch(`${small.url}/api/conversations/long/export`)).status).toBe(413);
  });
});

/** A tmpfs of `size`, when this process may mount one (root on Linux, allowed to mount); undefined otherwise. */
/** A tmpfs of `size` mounted on a fresh directory, or why none could be (needs root on Linux). */
function mountTmpfs(size: string): { dir: string } | { problem: string } {
  if (process.platform !== "linux") return { problem: `mounting a tmpfs needs Linux (this is ${process.platform})` };
  if (process.getuid?.() !== 0) return { problem: `mounting a tmpfs needs root (uid ${process.getuid?.()})` };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-full-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "pipe" });
    return { dir };
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    const stderr = String((error as { stderr?: Buffer }).stderr ?? "").trim();
    return { problem: `mount -t tmpfs failed: ${stderr || (error as Error).message}` };
  }
}

function unmount(dir: string): void {
  execFileSync("umount", [dir]);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Why a tmpfs cannot be mounted here, or null (probed and unmounted at once, so a filtered-out run leaves nothing behind). */
const cannotMount = (() => {
  const probe = mountTmpfs("64k");
  if ("dir" in probe) unmount(probe.dir);
  return "problem" in probe ? probe.problem : null;
})();
const underCi = !!process.env.CI && !["false", "0"].includes(process.env.CI);

// Skipped (and counted as skipped by `npm test`) on a machine that cannot mount; under CI, which runs as root, it
// runs and fails instead: a skip there would hide the only test of a full disk.
describe.skipIf(cannotMount !== null && !underCi)("a full disk", () => {
  let server: AppServer;
  let fullDir: string | undefined;

  beforeAll(async () => {
    const mounted = mountTmpfs("4m");
    if ("problem" in mounted) throw new Error(`the full-disk test cannot run under CI: ${mounted.problem}`);
    fullDir = mounted.dir;
    const databaseUrl = `file:${path.join(fullDir!, "app.db")}`;
    migrate(databaseUrl);
    server = await startAppServer({ databaseUrl, env: { HINTLINE_DEMO_WORD_DELAY_MS: "10" } });
    expect((await chat(server.url, { conversationId: "d", text: "hello" })).response.status).toBe(200);
  });

  afterAll(async () => {
    await server?.stop();
    if (fullDir) unmount(fullDir);
  });

  function fillDisk(): string {
    const filler = path.join(fullDir!, "filler");
    const fd = fs.openSync(filler, "w");
    try {
      const block = Buffer.alloc(64 * 1024, 1);
      for (;;) fs.writeSync(fd, block);
    } catch (error) {
      expect((error as NodeJS.ErrnoException).code).toBe("ENOSPC");
    } finally {
      fs.closeSync(fd);
    }
    return filler;
  }

  it("says the disk is full (507), not that the provider failed", async () => {
    const filler = fillDisk();
    try {
      const text = "x".repeat(90_000);
      const response = await postChat(server.url, { conversationId: "d", text });
      expect(await expectApiError(response, 507, "disk_full")).toBe("The server's disk is full; nothing was saved.");
    } finally {
      fs.rmSync(filler);
    }
    expect((await chat(server.url, { conversationId: "d", text: "write 2 words about space" })).response.status).toBe(
      200,
    );
  });

  it("ends a reply whose rows can no longer be written with that reason, not as a provider failure", async () => {
    const response = await postChat(server.url, { conversationId: "d", text: "write 400 words about rivers" });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let stream = "";
    while (!stream.includes('"text-delta"')) {
      const { value, done } = await reader.read();
      if (done) break;
      stream += decoder.decode(value, { stream: true });
    }
    const filler = fillDisk();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        stream += decoder.decode(value, { stream: true });
      }
    } finally {
      fs.rmSync(filler);
    }
    const errors = stream
      .split("\n")
      .filter((line) => line.startsWith("data: {"))
      .map((line) => JSON.parse(line.slice(6)) as { type: string; errorText?: string })
      .filter((chunk) => chunk.type === "error");
    expect(errors).toEqual([
      {
        type: "error",
        errorText:
          "The server's disk is full, so the rest of this reply could not be saved. Free some space and retry.",
      },
    ]);
    expect((await chat(server.url, { conversationId: "d", text: "write 2 words about space" })).response.status).toBe(
      200,
    );
  });
});

/**
 * Sends a chunked body (no Content-Length) of `total` bytes and then keeps the request open without ending it, as a
 * slow or hostile client would: resolves with the answer, or with status 0 when none came within `waitMs`.
 */
function endlessUpload(
  baseUrl: string,
  requestPath: string,
  { total, headers = {}, waitMs = 15_000 }: { total: number; headers?: Record<string, string>; waitMs?: number },
) {
  const url = new URL(baseUrl);
  return new Promise<RawResponse>((resolve) => {
    const request = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: "POST",
        path: requestPath,
        headers: { "content-type": "application/json", ...headers },
      },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (d) => (text += d));
        response.on("end", () => {
          clearTimeout(timer);
          request.destroy();
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text });
        });
      },
    );
    request.on("error", () => {});
    const timer = setTimeout(() => {
      request.destroy();
      resolve({ status: 0, headers: {}, body: "no answer while the body was still arriving" });
    }, waitMs);
    pumpBody(request, total);
  });
}

describe("bodies that never end", () => {
  let server: AppServer;

  beforeAll(async () => {
    // Room for one 64 KiB attachment: the chat body limit (389,432 bytes: 100,000 characters at 3 bytes, the attachment
    // as base64 and 2 KiB of JSON around it) stays under the 500 KB body below.
    server = await startAppServer({
      env: { HINTLINE_AUTH_TOKEN: "edge-token", HINTLINE_MAX_ATTACHMENTS: "1", HINTLINE_MAX_ATTACHMENT_BYTES: "65536" },
    });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("refuses a chunked sign-in body once it passes the limit, without waiting for its end", async () => {
    const response = await endlessUpload(server.url, "/api/auth/sign-in", { total: 1024 * 1024 });
    expectRawError(response, 413, "payload_too_large", /over the 16384-byte limit/);
  });

  it("refuses a chunked body sent without credentials the same way, on any route", async () => {
    const response = await endlessUpload(server.url, "/api/chat", { total: 1024 * 1024 });
    expectRawError(response, 413, "payload_too_large", /over the 16384-byte limit/);
    // The server still answers, and a complete oversize body with credentials gets the route's own 413.
    const chunked = await fetch(`${server.url}/api/chat`, {
      method: "POST",
      headers: { authorization: "Bearer edge-token", "content-type": "application/json" },
      body: new Blob([chatBody("big", "big-1", "x".repeat(500 * 1024))]).stream(),
      duplex: "half",
    } as RequestInit);
    await expectApiError(chunked, 413, "payload_too_large");
    expect((await fetch(`${server.url}/api/model`, { headers: { authorization: "Bearer edge-token" } })).status).toBe(
      200,
    );
  });
});
