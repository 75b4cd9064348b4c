// The tests' waits fail loudly at their deadline: pollUntil and the /api/events listener throw, naming what they
// waited for and what they saw, instead of handing back a value a test might not look at.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { listenToEvents } from "./chat-client.ts";
import { pollUntil } from "./poll.ts";

describe("pollUntil", () => {
  it("returns the first value that is done", async () => {
    let n = 0;
    expect(
      await pollUntil(
        async () => ++n,
        (v) => v >= 3,
        2_000,
      ),
    ).toBe(3);
  });

  it("throws at the deadline, naming what it waited for and the last value", async () => {
    const started = Date.now();
    await expect(
      pollUntil(
        async () => ({ status: "streaming" }),
        (v) => v.status === "incomplete",
        300,
        "the reply to be incomplete",
      ),
    ).rejects.toThrow(
      'pollUntil: still not there after 300 ms, waiting for the reply to be incomplete; the last value was {"status":"streaming"}',
    );
    expect(Date.now() - started).toBeLessThan(2_000);
    // Without a description, the condition's own source says what was waited for.
    await expect(
      pollUntil(
        async () => 1,
        (v) => v === 2,
        100,
      ),
    ).rejects.toThrow(/waiting for \(v\) => v === 2; the last value was 1/);
  });
});

describe("listenToEvents", () => {
  let server: http.Server | undefined;
  afterEach(async () => {
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = undefined;
  });
  /** A stand-in for GET /api/events that answers with `handler`. */
  const serve = async (handler: (response: http.ServerResponse) => void) => {
    server = http.createServer((_request, response) => handler(response));
    await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };
  const stream = (response: http.ServerResponse) => response.writeHead(200, { "content-type": "text/event-stream" });

  it("opens on the server's first comment and waits for a matching event", async () => {
    const url = await serve((response) => {
      stream(response);
      response.write(": connected\n\n");
      setTimeout(() => response.write(`data: ${JSON.stringify({ type: "tasks", id: "c1" })}\n\n`), 100);
    });
    const listener = listenToEvents(url);
    try {
      expect(await listener.opened).toBe("text/event-stream");
      await listener.waitFor((e) => e.type === "tasks" && e.id === "c1", "a tasks event for c1", 2_000);
      // An event that never comes: it says which, and what came instead.
      await expect(listener.waitFor((e) => e.type === "conversation", "a conversation event", 200)).rejects.toThrow(
        /waited 200 ms for a conversation event from http:\/\/127\.0\.0\.1:\d+; events seen: \[\{"type":"tasks","id":"c1"\}\]/,
      );
    } finally {
      listener.close();
    }
  });

  it("rejects `opened` when the server refuses or never says it is connected", async () => {
    const refusing = await serve((response) =>
      response.writeHead(401, { "content-type": "application/json" }).end('{"error":"no"}'),
    );
    const refused = listenToEvents(refusing);
    await expect(refused.opened).rejects.toThrow(/answered 401: \{"error":"no"\}/);
    refused.close();
    await new Promise((resolve) => server!.close(resolve));

    const silent = await serve(stream);
    const waiting = listenToEvents(silent, { openTimeoutMs: 200 });
    await expect(waiting.opened).rejects.toThrow(
      /no "connected" comment from GET http:\/\/127\.0\.0\.1:\d+\/api\/events within 200 ms/,
    );
    waiting.close();
  });

  it("makes the next wait throw when the stream ends before close()", async () => {
    const url = await serve((response) => {
      stream(response);
      response.end(": connected\n\n");
    });
    const listener = listenToEvents(url);
    await listener.opened;
    await expect(listener.waitFor(() => false, "any event", 2_000)).rejects.toThrow(
      /waiting for any event: .*ended before close\(\)/,
    );
    listener.close();
  });
});
