import { describe, expect, it } from "vitest";
import { createMemoryRelay } from "./relay.ts";

const decoder = new TextDecoder();

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const part of stream) text += decoder.decode(part);
  return text;
}

const lines = (text: string) => text.split("\n\n").filter(Boolean);

describe("the in-process live relay", () => {
  it("replays a reply from its first chunk to a late follower and follows it to the end", async () => {
    const relay = createMemoryRelay();
    const sink = relay.open("c", "r");
    sink.write({ type: "start" });
    sink.write({ type: "text-delta", id: "0" });
    const late = relay.follow("c")!;
    const reading = readAll(late);
    sink.write({ type: "finish" });
    sink.end();
    expect(lines(await reading)).toEqual([
      'data: {"type":"start"}',
      'data: {"type":"text-delta","id":"0"}',
      'data: {"type":"finish"}',
      "data: [DONE]",
    ]);
    expect(relay.follow("c")).toBeUndefined();
  });

  it("keeps only the newest transient snapshot of each kind", async () => {
    const relay = createMemoryRelay();
    const sink = relay.open("c", "r");
    sink.write({ type: "data-tasks", id: "tasks", transient: true, data: 1 } as never);
    sink.write({ type: "data-hint", id: "h" });
    sink.write({ type: "data-tasks", id: "tasks", transient: true, data: 2 } as never);
    const stream = relay.follow("c")!;
    sink.end();
    expect(lines(await readAll(stream))).toEqual([
      'data: {"type":"data-hint","id":"h"}',
      'data: {"type":"data-tasks","id":"tasks","transient":true,"data":2}',
      "data: [DONE]",
    ]);
  });

  it("stops being resumable past its byte limit; the reply's followers end where it stopped", async () => {
    const relay = createMemoryRelay(() => ({ maxBytes: 100, graceMs: 1_000 }));
    const sink = relay.open("c", "r");
    sink.write({ type: "start" });
    const follower = relay.follow("c")!;
    sink.write({ type: "text-delta", id: "0", delta: "x".repeat(200) } as never);
    expect(relay.follow("c")).toBeUndefined();
    expect(lines(await readAll(follower))).toEqual(['data: {"type":"start"}']);
    sink.end();
  });

  it("copies nothing for a follower that never reads, and drops it when the grace after the end runs out", async () => {
    const relay = createMemoryRelay(() => ({ maxBytes: 1_000_000, graceMs: 20 }));
    const sink = relay.open("c", "r");
    const idle = relay.follow("c")!;
    for (let i = 0; i < 1_000; i++) sink.write({ type: "text-delta", id: "0", delta: "word " } as never);
    sink.end();
    await relay.ended("c", "r");
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Released: the follower that never read gets an empty, closed stream instead of a kept buffer.
    expect(await readAll(idle)).toBe("");
  });

  it("tells when a reply has ended", async () => {
    const relay = createMemoryRelay();
    const sink = relay.open("c", "r");
    let ended = false;
    const waiting = relay.ended("c", "r").then(() => (ended = true));
    await Promise.resolve();
    expect(ended).toBe(false);
    sink.end();
    await waiting;
    expect(ended).toBe(true);
    await relay.ended("c", "other"); // not live: at once
  });
});
