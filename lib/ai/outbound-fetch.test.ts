import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OutboundAddressError, type Resolve } from "./outbound-address.ts";
import { outboundFetch, ResponseTooLargeError } from "./outbound-fetch.ts";

/** A real HTTP server on loopback that counts the connections it accepts and records the requests it answers. */
let server: http.Server;
let port = 0;
let connections = 0;
const requests: { method: string; url: string; headers: http.IncomingHttpHeaders; body: string }[] = [];

beforeAll(async () => {
  server = http.createServer(async (request, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    requests.push({ method: request.method!, url: request.url!, headers: request.headers, body });
    if (request.url === "/redirect")
      return response.writeHead(307, { location: "http://169.254.169.254/latest" }).end();
    if (request.url === "/reason")
      return response
        .writeHead(500, "Database at 10.0.0.7 is down", { "content-type": "text/plain" })
        .end("stack trace here");
    if (request.url === "/empty") return response.writeHead(204).end();
    if (request.url === "/endless") {
      response.writeHead(200, { "content-type": "application/octet-stream" });
      const chunk = Buffer.alloc(64 * 1024, 120);
      const pump = () => {
        while (!response.destroyed && response.write(chunk));
        if (!response.destroyed) response.once("drain", pump);
      };
      return pump();
    }
    response
      .writeHead(200, { "content-type": "application/json", "x-echo": "1" })
      .end(JSON.stringify({ method: request.method, body }));
  });
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const loopback = (): Resolve & { asked: number } => {
  const resolve = async () => {
    resolve.asked++;
    return [{ address: "127.0.0.1", family: 4 }];
  };
  resolve.asked = 0;
  return resolve;
};

describe("outbound fetch", () => {
  it("refuses a loopback or private target before connecting: as written, by a localhost name, or by what a name resolves to", async () => {
    const before = connections;
    const refuse = outboundFetch({ allowPrivate: false });
    await expect(refuse(`http://127.0.0.1:${port}/`)).rejects.toBeInstanceOf(OutboundAddressError);
    await expect(refuse(`http://[::ffff:127.0.0.1]:${port}/`)).rejects.toBeInstanceOf(OutboundAddressError);
    await expect(refuse(`http://2130706433:${port}/`)).rejects.toBeInstanceOf(OutboundAddressError);
    await expect(refuse(`http://localhost:${port}/`)).rejects.toThrow(/localhost names this machine/);
    const resolve = loopback();
    await expect(
      outboundFetch({ allowPrivate: false, resolve })(`http://mcp.rebind.test:${port}/`, {
        method: "POST",
        body: "{}",
      }),
    ).rejects.toThrow(/^mcp\.rebind\.test resolves to a loopback address/);
    expect(resolve.asked).toBe(1);
    expect(connections).toBe(before);
  });

  it("connects to the address it checked, resolving the name once per connection, and speaks HTTP like fetch", async () => {
    const resolve = loopback();
    const fetch = outboundFetch({ allowPrivate: true, resolve });
    const response = await fetch(`http://mcp.rebind.test:${port}/call?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer t" },
      body: '{"a":"é"}',
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-echo")).toBe("1");
    expect(await response.json()).toEqual({ method: "POST", body: '{"a":"é"}' });
    const seen = requests.at(-1)!;
    expect(seen).toMatchObject({
      method: "POST",
      url: "/call?x=1",
      headers: { host: `mcp.rebind.test:${port}`, authorization: "Bearer t", "content-length": "10" },
    });
    // Nothing compressed is asked for: what is counted is what is read.
    expect(seen.headers["accept-encoding"]).toBeUndefined();
    expect(resolve.asked).toBe(1);
    const empty = await fetch(`http://mcp.rebind.test:${port}/empty`, { method: "DELETE" });
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
  });

  it("follows no redirect, and gives the standard reason phrase rather than the server's", async () => {
    const fetch = outboundFetch({ allowPrivate: true });
    await expect(fetch(`http://127.0.0.1:${port}/redirect`, { redirect: "error" })).rejects.toThrow(/fetch failed/);
    await expect(
      fetch(`http://127.0.0.1:${port}/redirect`).catch((e: Error) => (e.cause as Error).message),
    ).resolves.toMatch(/redirect \(HTTP 307\), which is not followed/);
    const failed = await fetch(`http://127.0.0.1:${port}/reason`);
    expect(failed.status).toBe(500);
    expect(failed.statusText).toBe("Internal Server Error");
  });

  it("errors a body past its byte limit and stops reading; an abort ends the request", async () => {
    const fetch = outboundFetch({ allowPrivate: true, maxResponseBytes: 1024 * 1024 });
    const response = await fetch(`http://127.0.0.1:${port}/endless`);
    const reader = response.body!.getReader();
    let read = 0;
    const error = await (async () => {
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return undefined;
          read += value.byteLength;
        }
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(read).toBeLessThanOrEqual(1024 * 1024);
    const controller = new AbortController();
    const aborted = outboundFetch({ allowPrivate: true })(`http://127.0.0.1:${port}/endless`, {
      signal: controller.signal,
    });
    const started = await aborted;
    controller.abort(new DOMException("enough", "AbortError"));
    await expect(started.body!.getReader().read()).rejects.toThrow();
    await expect(
      outboundFetch({ allowPrivate: true })(`http://127.0.0.1:${port}/`, { signal: controller.signal }),
    ).rejects.toThrow(/enough/);
    await expect(
      outboundFetch({ allowPrivate: true })(`http://127.0.0.1:${port}/`, { body: new Blob(["x"]), method: "POST" }),
    ).rejects.toThrow(/only string or byte bodies/);
  });
});
