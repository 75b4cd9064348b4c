import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../chat-message.ts";
import { historyFold } from "./history-fold.ts";

const message = (id: string, status?: "streaming"): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text: id }],
  metadata: status ? { status } : {},
});

function counting() {
  const calls: string[] = [];
  const fold = historyFold((m: ChatMessage) => {
    calls.push(m.id);
    return `${m.id}!`;
  });
  return { fold, calls };
}

describe("historyFold", () => {
  it("derives each settled message once, turn after turn, and always answers like a fresh map", () => {
    const { fold, calls } = counting();
    const history = [message("a"), message("b")];
    expect(fold(history)).toEqual(["a!", "b!"]);
    const next = [...history, message("c"), message("d")];
    expect(fold(next)).toEqual(["a!", "b!", "c!", "d!"]);
    expect(fold(next)).toEqual(["a!", "b!", "c!", "d!"]);
    expect(calls).toEqual(["a", "b", "c", "d"]);
  });

  it("keeps only the shared part when a history diverges (a retry) and starts afresh for other objects", () => {
    const { fold, calls } = counting();
    const [a, b, c] = [message("a"), message("b"), message("c")];
    fold([a, b, c]);
    const retried = [a, message("b2")];
    expect(fold(retried)).toEqual(["a!", "b2!"]);
    expect(fold([a, b])).toEqual(["a!", "b!"]);
    // The same ids as new objects (rows loaded again): nothing is reused.
    expect(fold([message("a"), message("b")])).toEqual(["a!", "b!"]);
    expect(calls).toEqual(["a", "b", "c", "b2", "b", "a", "b"]);
  });

  it("derives a streaming message afresh every time, and what follows it too", () => {
    const { fold, calls } = counting();
    const a = message("a");
    const live = message("live", "streaming");
    expect(fold([a, live])).toEqual(["a!", "live!"]);
    expect(fold([a, live])).toEqual(["a!", "live!"]);
    expect(calls).toEqual(["a", "live", "live"]);
    expect(fold([])).toEqual([]);
  });
});
