import { AsyncLocalStorage } from "node:async_hooks";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { createMemoryRelay } from "./relay.ts";

setFlagsFromString("--expose-gc");
/** A full collection (the flag above makes `gc` a global of new contexts). */
const collectGarbage = runInNewContext("gc") as () => void;
const turn = () => new Promise((resolve) => setImmediate(resolve));

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

  it("holds nothing of a reply once its followers have read it to the end, however long the grace", async () => {
    // The request that starts a reply runs in its own async context (Next.js's request store, the request itself);
    // a timer made then captures that context, so a buffer kept for the grace held the whole request with it.
    const relay = createMemoryRelay(() => ({ maxBytes: 1_000_000, graceMs: 3_600_000 }));
    const requests = new AsyncLocalStorage<{ body: Uint8Array }>();
    // One request's reply, followed to its end; in a function of its own so that no variable here keeps the request.
    const oneRequest = async (i: number): Promise<WeakRef<object>> => {
      const request = { body: new Uint8Array(64 * 1024) };
      await requests.run(request, async () => {
        const sink = relay.open(`c${i}`, `r${i}`);
        const follower = relay.follow(`c${i}`)!;
        const reading = readAll(follower);
        sink.write({ type: "text-delta", id: "0", delta: "Noted." } as never);
        sink.end();
        expect(lines(await reading).at(-1)).toBe("data: [DONE]");
      });
      return new WeakRef(request);
    };
    const held: WeakRef<object>[] = [];
    for (let i = 0; i < 50; i++) held.push(await oneRequest(i));
    // A reply nobody followed, and one whose follower went away.
    const unfollowed = relay.open("c-none", "r-none");
    unfollowed.write({ type: "start" });
    unfollowed.end();
    const leaving = relay.open("c-gone", "r-gone");
    await relay.follow("c-gone")!.cancel();
    leaving.end();
    await turn();
    collectGarbage();
    await turn();
    expect(held.flatMap((ref, i) => (ref.deref() ? [i] : []))).toEqual([]);
  });

  it("still lets a follower behind at the end read it all within the grace", async () => {
    const relay = createMemoryRelay(() => ({ maxBytes: 1_000_000, graceMs: 3_600_000 }));
    const sink = relay.open("c", "r");
    const behind = relay.follow("c")!;
    for (let i = 0; i < 100; i++) sink.write({ type: "text-delta", id: "0", delta: "word " } as never);
    sink.end();
    await relay.ended("c", "r");
    collectGarbage();
    const text = await readAll(behind);
    expect(lines(text)).toHaveLength(101);
    expect(lines(text).at(-1)).toBe("data: [DONE]");
  });
});
