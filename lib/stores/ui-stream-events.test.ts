// The browser's SSE reading of a UI message stream against the AI SDK's (parseJsonEventStream, Node side only): the
// server's recorded streams, cut into pieces at every kind of boundary (inside a line, inside a UTF-8 character,
// between CR and LF), give the same chunks; comments, other fields, [DONE] and an unfinished last event are skipped.
import { jsonSchema, parseJsonEventStream } from "ai";
import { describe, expect, it } from "vitest";
import { uiMessageChunks } from "./ui-stream-events";
import recorded from "./ui-streams.recorded.json";

function bodyOf(text: string, cuts: number[]): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  const ends = [...cuts.filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  return new ReadableStream({
    start(controller) {
      let from = 0;
      for (const end of ends) {
        controller.enqueue(bytes.slice(from, end));
        from = end;
      }
      controller.close();
    },
  });
}

async function ours(text: string, cuts: number[]): Promise<unknown[]> {
  const chunks: unknown[] = [];
  for await (const chunk of uiMessageChunks(bodyOf(text, cuts))) chunks.push(chunk);
  return chunks;
}

async function sdk(text: string): Promise<unknown[]> {
  const chunks: unknown[] = [];
  const reader = parseJsonEventStream({ stream: bodyOf(text, []), schema: jsonSchema({}) }).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return chunks;
    if (!value.success) throw value.error;
    chunks.push(value.value);
  }
}

describe("the chat's SSE reader, against the AI SDK's", () => {
  const streams = recorded as { name: string; chunks: unknown[] }[];
  const sse = (chunks: unknown[], end = "\n") => chunks.map((c) => `data: ${JSON.stringify(c)}${end}${end}`).join("");

  it("reads every recorded stream alike, however its bytes are cut", async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (const { chunks } of streams) {
      const text = `${sse(chunks)}data: [DONE]\n\n`;
      const expected = await sdk(text);
      expect(expected).toEqual(chunks);
      const cuts = Array.from({ length: 40 }, () => Math.floor(random() * text.length * 1.2));
      expect(await ours(text, cuts)).toEqual(expected);
    }
  });

  it("reads CR, CRLF, comments, other fields, multi-line data, a byte-by-byte body and a non-ASCII text", async () => {
    const chunk = { type: "text-delta", id: "t", delta: "Grüße — 日本 🌊" };
    const text = [
      ": keep-alive\r\n\r\n",
      `event: message\r\nid: 1\r\ndata: ${JSON.stringify(chunk)}\r\n\r\n`,
      `data: ${JSON.stringify(chunk)}\r\r`,
      'data: {"type":\ndata: "finish"}\n\n',
      'data: {"type":\r\ndata: "finish-step"}\r\n\r\n',
      "retry: 10\n\n",
      'data: {"type": "unfinished"}',
    ].join("");
    const everyByte = Array.from({ length: new TextEncoder().encode(text).length }, (_, i) => i);
    const expected = await sdk(text);
    expect(expected).toEqual([chunk, chunk, { type: "finish" }, { type: "finish-step" }]);
    expect(await ours(text, [])).toEqual(expected);
    expect(await ours(text, everyByte)).toEqual(expected);
  });

  it("fails on an event that is not a chunk, and on one forging a prototype", async () => {
    await expect(ours("data: {not json\n\n", [])).rejects.toThrow(/not JSON/);
    await expect(ours('data: {"no":"type"}\n\n', [])).rejects.toThrow(/without a type/);
    await expect(ours('data: {"type":"x","__proto__":{"a":1}}\n\n', [])).rejects.toThrow(/prototype/);
  });
});
