import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../chat-message.ts";
import { sharedCacheSizes } from "../bounded-map.ts";
import {
  cachedHistory,
  forgetHistory,
  HISTORY_CACHE_MAX_BYTES,
  historyAppended,
  historySettled,
  rememberHistory,
} from "./history-cache.ts";

const message = (id: string, status?: "streaming"): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text: id }],
  metadata: { createdAt: "2026-07-01T12:00:00.000Z", ...(status ? { status } : {}) },
});
const v = (messageSeq: number) => ({ messageSeq, createdAt: "2026-07-01T00:00:00.000Z" });

describe("history cache", () => {
  it("hits only for the same counter and creation time, and returns a copy", () => {
    rememberHistory("a", v(2), [message("1"), message("2")]);
    const hit = cachedHistory("a", v(2));
    expect(hit?.map((m) => m.id)).toEqual(["1", "2"]);
    hit?.push(message("x"));
    expect(cachedHistory("a", v(2))).toHaveLength(2);
    expect(cachedHistory("a", v(3))).toBeUndefined();
    expect(cachedHistory("a", { messageSeq: 2, createdAt: "2026-07-02T00:00:00.000Z" })).toBeUndefined();
    forgetHistory("a");
    expect(cachedHistory("a", v(2))).toBeUndefined();
  });

  it("follows appends in order, holds a streaming reply back until it settles, and drops itself on a gap", () => {
    rememberHistory("b", v(1), [message("1")]);
    historyAppended("b", message("2"), 1);
    historyAppended("b", { ...message("r", "streaming"), role: "assistant" }, 2);
    expect(cachedHistory("b", v(3))).toBeUndefined(); // the reply is not settled yet
    historySettled("b", {
      id: "r",
      parts: [{ type: "text", text: "done" }],
      metadata: { model: "m" },
      status: "complete",
    });
    expect(cachedHistory("b", v(3))?.at(-1)).toEqual({
      id: "r",
      role: "assistant",
      parts: [{ type: "text", text: "done" }],
      metadata: { model: "m", createdAt: "2026-07-01T12:00:00.000Z" },
    });
    historyAppended("b", message("late"), 7); // not where the cache ends: something else wrote in between
    expect(cachedHistory("b", v(3))).toBeUndefined();
    expect(cachedHistory("b", v(8))).toBeUndefined();
  });

  it("never remembers a history with a streaming message, and stays within its message budget", () => {
    rememberHistory("c", v(1), [message("s", "streaming")]);
    expect(cachedHistory("c", v(1))).toBeUndefined();
    const big = Array.from({ length: 12_000 }, (_, i) => message(`m${i}`));
    rememberHistory("d", v(big.length), big);
    rememberHistory("e", v(big.length), big);
    expect(cachedHistory("d", v(big.length))).toBeUndefined(); // evicted: 24,000 messages is over the budget
    expect(cachedHistory("e", v(big.length))).toHaveLength(12_000);
  });

  it("stays within its byte budget however large the messages, appended ones included", () => {
    const large = (id: string) => ({ ...message(id), parts: [{ type: "text" as const, text: "x".repeat(6_000_000) }] });
    for (const id of ["f", "g", "h", "i", "j"]) rememberHistory(id, v(1), [large(`${id}1`)]);
    historyAppended("j", large("j2"), 1);
    expect(sharedCacheSizes().history!.bytes).toBeLessThanOrEqual(HISTORY_CACHE_MAX_BYTES);
    expect(cachedHistory("f", v(1))).toBeUndefined(); // the least recently used went first
    expect(cachedHistory("j", v(2))).toHaveLength(2);
  });
});
