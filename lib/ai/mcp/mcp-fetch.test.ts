import { describe, expect, it } from "vitest";
import { MCP_LIMIT_ERROR_CODE, MCP_MESSAGE_MAX_BYTES, MCP_RESPONSE_MAX_BYTES } from "./limits.ts";
import { mcpFetch, REMOTE_BODY_NOT_SHOWN, requestIds } from "./mcp-fetch.ts";
import { PROGRESS_ARGUMENT } from "./progress.ts";

const call = (id: number, args: Record<string, unknown> = {}, meta?: Record<string, unknown>) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: { name: "slow", arguments: args, ...(meta ? { _meta: meta } : {}) },
});
const sse = (message: unknown) => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const progressNote = (token: string) => ({
  jsonrpc: "2.0",
  method: "notifications/progress",
  params: { progressToken: token, progress: 1 },
});
const MiB = 1024 * 1024;

/** A body that yields `prefix`, then `filler` repeated in chunks of about 64 KiB as they are pulled, up to `total` bytes; `pulled` and `cancelled` say what was read. */
function endless(prefix: string, filler: string, total: number) {
  const state = { pulled: 0, cancelled: false };
  const encoder = new TextEncoder();
  const chunk = encoder.encode(filler.repeat(Math.max(1, Math.floor((64 * 1024) / encoder.encode(filler).byteLength))));
  let first = true;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = first ? encoder.encode(prefix) : chunk;
      first = false;
      if (state.pulled >= total) return controller.close();
      state.pulled += next.byteLength;
      controller.enqueue(next);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { body, state };
}

/** mcpFetch over a fake network that answers each request with the next of `replies`, recording the bodies sent. */
function over(...replies: Response[]) {
  const sent: unknown[] = [];
  const fetch = mcpFetch({ allowPrivate: true }, async (_input, init) => {
    sent.push(init?.body);
    return replies.shift()!;
  });
  return { fetch, sent };
}
/** Lets a cancellation that follows the stream's end happen. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 10));
const post = (body: unknown) => ({ method: "POST", body: JSON.stringify(body) });

describe("the MCP fetch", () => {
  it("moves a progress token into _meta, takes progress out of event streams and hands JSON on as it came", async () => {
    const { fetch, sent } = over(
      new Response(sse(progressNote("t")) + sse({ jsonrpc: "2.0", id: 7, result: {} }), {
        headers: { "content-type": "text/event-stream", "mcp-session-id": "s1" },
      }),
      new Response(JSON.stringify({ jsonrpc: "2.0", id: 8, result: { x: 1 } }), {
        headers: { "content-type": "application/json" },
      }),
    );
    const streamed = await fetch("http://mcp.test/mcp", post(call(7, { [PROGRESS_ARGUMENT]: "t" })));
    expect(JSON.parse(sent[0] as string)).toEqual(call(7, {}, { progressToken: "t" }));
    expect(streamed.headers.get("mcp-session-id")).toBe("s1");
    expect(await streamed.text()).toBe(sse({ jsonrpc: "2.0", id: 7, result: {} }));
    expect(await (await fetch("http://mcp.test/mcp", post(call(8)))).json()).toEqual({
      jsonrpc: "2.0",
      id: 8,
      result: { x: 1 },
    });
  });

  it("never hands on an HTTP error's body: a JSON-RPC error in it is made plain and capped, anything else is not shown", async () => {
    const secret = "<html>root:x:0:0 internal admin panel</html>";
    const forged = {
      jsonrpc: "2.0",
      id: 3,
      error: { code: -32600, message: `bad\u0000 request\n${"y".repeat(1_000)}`, data: { secret } },
    };
    const { fetch } = over(
      new Response(secret, {
        status: 500,
        statusText: "Internal Server Error",
        headers: { "content-type": "text/html", "content-length": "45" },
      }),
      new Response(JSON.stringify(forged), { status: 400, headers: { "content-type": "application/json" } }),
      new Response(`{"error": "${"z".repeat(MCP_MESSAGE_MAX_BYTES)}"}`, { status: 502 }),
    );
    const html = await fetch("http://mcp.test/mcp", post(call(1)));
    expect(html.status).toBe(500);
    expect(html.headers.get("content-length")).toBeNull();
    expect(await html.text()).toBe(REMOTE_BODY_NOT_SHOWN);
    const rpc = await (await fetch("http://mcp.test/mcp", post(call(3)))).json();
    expect(rpc.id).toBe(3);
    expect(rpc.error.code).toBe(-32600);
    expect(rpc.error.message).toMatch(/^bad request y+…$/);
    expect(rpc.error.message.length).toBe(301);
    expect(JSON.stringify(rpc)).not.toContain("root:x");
    expect(await (await fetch("http://mcp.test/mcp", post(call(4)))).text()).toBe(REMOTE_BODY_NOT_SHOWN);
  });

  it("answers a call with a JSON-RPC error, not the body, when a JSON body is too long, not JSON, or neither JSON nor events", async () => {
    const huge = endless('{"jsonrpc":"2.0","id":5,"result":{"content":[{"type":"text","text":"', "x", 64 * MiB);
    const { fetch } = over(
      new Response(huge.body, { headers: { "content-type": "application/json" } }),
      new Response("<html>Sign in to the intranet</html>", { headers: { "content-type": "application/json" } }),
      new Response("plain words", { headers: { "content-type": "text/plain" } }),
      new Response("ignored", { status: 202, headers: { "content-type": "text/plain" } }),
    );
    const tooLong = await (await fetch("http://mcp.test/mcp", post(call(5)))).json();
    expect(tooLong).toEqual({
      jsonrpc: "2.0",
      id: 5,
      error: {
        code: MCP_LIMIT_ERROR_CODE,
        message: expect.stringMatching(
          /^the MCP server sent a body longer than 4 MiB, the most Hintline reads as one message; the rest was not read$/,
        ),
      },
    });
    expect(huge.state.pulled).toBeLessThanOrEqual(MCP_MESSAGE_MAX_BYTES + 128 * 1024);
    expect(huge.state.cancelled).toBe(true);
    const notJson = await (await fetch("http://mcp.test/mcp", post([call(6), call(7)]))).json();
    expect(notJson.map((a: { id: number; error: { message: string } }) => [a.id, a.error.message])).toEqual([
      [6, "the MCP server answered with a body that is not valid JSON"],
      [7, "the MCP server answered with a body that is not valid JSON"],
    ]);
    const other = await fetch("http://mcp.test/mcp", post(call(8)));
    expect(other.headers.get("content-type")).toBe("application/json");
    expect((await other.json()).error.message).toBe("the MCP server answered with neither JSON nor an event stream");
    const accepted = await fetch("http://mcp.test/mcp", post({ jsonrpc: "2.0", method: "notifications/initialized" }));
    expect(accepted.status).toBe(202);
    expect(await accepted.text()).toBe("");
  });

  it("cuts an event that never ends at 4 MiB (64 MiB offered) and answers the waiting call instead, reading no further", async () => {
    const limitAnswer = sse({
      jsonrpc: "2.0",
      id: 9,
      error: {
        code: MCP_LIMIT_ERROR_CODE,
        message:
          "the MCP server sent an event longer than 4 MiB, the most Hintline reads as one message; the rest was not read",
      },
    });
    const head = 'event: message\ndata: {"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"';
    // An event is counted in characters once decoded: never more than its bytes, so 4 MiB of ASCII is where it ends,
    // and 4 Mi characters of multi-byte text (here 7 bytes for 4 characters) at most twice that.
    for (const [filler, most] of [
      ["x", MCP_MESSAGE_MAX_BYTES],
      ["é😀x", 2 * MCP_MESSAGE_MAX_BYTES],
    ] as const) {
      const flood = endless(head, filler, 64 * MiB);
      const { fetch } = over(new Response(flood.body, { headers: { "content-type": "text/event-stream" } }));
      const started = performance.now();
      expect(await (await fetch("http://mcp.test/mcp", post(call(9)))).text()).toBe(limitAnswer);
      expect(performance.now() - started).toBeLessThan(5_000);
      expect(flood.state.pulled).toBeLessThanOrEqual(most + 128 * 1024);
      await settled();
      expect(flood.state.cancelled).toBe(true);
    }
  });

  it("cuts a response of many small events at 16 MiB; over an SSE transport's GET stream every call sent so far gets the error", async () => {
    const note = `: ${"keep-alive ".repeat(10)}\n\n`;
    const many = endless("", note, 64 * MiB);
    const stream = endless("", note, 64 * MiB);
    const { fetch } = over(
      new Response(many.body, { headers: { "content-type": "text/event-stream" } }),
      new Response(stream.body, { headers: { "content-type": "text/plain" } }),
      new Response(null, { status: 202 }),
      new Response(null, { status: 202 }),
    );
    const text = await (await fetch("http://mcp.test/mcp", post(call(10)))).text();
    expect(text.length).toBeLessThanOrEqual(MCP_RESPONSE_MAX_BYTES);
    expect(text).toMatch(
      /\n\nevent: message\ndata: \{"jsonrpc":"2.0","id":10,"error":\{"code":-32001,"message":"the MCP server's answer grew past 16 MiB, the most Hintline reads from one response; the rest was not read"\}\}\n\n$/,
    );
    expect(many.state.pulled).toBeLessThanOrEqual(MCP_RESPONSE_MAX_BYTES + 128 * 1024);
    const events = await fetch("http://mcp.test/sse");
    await fetch("http://mcp.test/messages", post(call(11)));
    await fetch("http://mcp.test/messages", post(call(12)));
    const answers = (await events.text())
      .split("\n\n")
      .filter((e) => e.startsWith("event: message"))
      .map((e) => JSON.parse(e.replace(/^event: message\ndata: /, "")));
    expect(answers.map((a) => a.id)).toEqual([10, 11, 12]);
    await settled();
    expect(stream.state.cancelled).toBe(true);
  });

  it("finds the request ids of a body (a batch too; notifications and answers have none)", () => {
    expect(requestIds(JSON.stringify(call(1)))).toEqual([1]);
    expect(
      requestIds(
        JSON.stringify([
          call(2),
          { jsonrpc: "2.0", method: "notifications/initialized" },
          { jsonrpc: "2.0", id: "a", method: "ping" },
          { jsonrpc: "2.0", id: 4, result: {} },
        ]),
      ),
    ).toEqual([2, "a"]);
    expect(requestIds("not json")).toEqual([]);
  });
});
