import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../chat-message.ts";
import { historyFlat, historyIndexOf, historyTotals } from "./history-fold.ts";

const message = (id: string, status?: "streaming"): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text: id }],
  metadata: status ? { status } : {},
});

function counting() {
  const calls: string[] = [];
  // A message named "x2" derives two items, "none" derives none.
  const fold = historyFlat((m: ChatMessage) => {
    calls.push(m.id);
    if (m.id === "none") return [];
    return m.id === "x2" ? ["x2!", "x2!!"] : [`${m.id}!`];
  });
  return { fold, calls };
}

describe("historyFlat", () => {
  it("derives each settled message once, turn after turn, and always answers like a fresh flatMap", () => {
    const { fold, calls } = counting();
    const history = [message("a"), message("x2")];
    expect(fold(history)).toEqual(["a!", "x2!", "x2!!"]);
    const next = [...history, message("none"), message("d")];
    expect(fold(next)).toEqual(["a!", "x2!", "x2!!", "d!"]);
    expect(fold(next)).toEqual(["a!", "x2!", "x2!!", "d!"]);
    expect(calls).toEqual(["a", "x2", "none", "d"]);
  });

  it("hands out a copy: changing what it returned changes nothing kept", () => {
    const { fold } = counting();
    const history = [message("a"), message("b")];
    const first = fold(history);
    first.push("mine");
    first[0] = "changed";
    expect(fold(history)).toEqual(["a!", "b!"]);
  });

  it("keeps only the shared part when a history diverges (a retry) and starts afresh for other objects", () => {
    const { fold, calls } = counting();
    const [a, b, c] = [message("a"), message("x2"), message("c")];
    fold([a, b, c]);
    const retried = [a, message("b2")];
    expect(fold(retried)).toEqual(["a!", "b2!"]);
    expect(fold([a, b])).toEqual(["a!", "x2!", "x2!!"]);
    // The same ids as new objects (rows loaded again): nothing is reused.
    expect(fold([message("a"), message("b")])).toEqual(["a!", "b!"]);
    expect(calls).toEqual(["a", "x2", "c", "b2", "x2", "a", "b"]);
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

describe("historyTotals", () => {
  const lengths = () => {
    const calls: string[] = [];
    const totals = historyTotals(
      (m: ChatMessage) => {
        calls.push(m.id);
        return m.id.length;
      },
      (x, y) => x + y,
      0,
    );
    return { totals, calls };
  };

  it("sums any leading range with two lookups, counting each settled message once", () => {
    const { totals, calls } = lengths();
    const history = [message("a"), message("bb"), message("ccc")];
    const totalOf = totals(history);
    expect([0, 1, 2, 3, 9].map(totalOf)).toEqual([0, 1, 3, 6, 6]);
    const next = [...history, message("dddd"), message("live", "streaming")];
    const nextTotalOf = totals(next);
    expect(nextTotalOf(5) - nextTotalOf(1)).toBe(2 + 3 + 4 + 4);
    expect(totals(next)(5)).toBe(14);
    expect(calls).toEqual(["a", "bb", "ccc", "dddd", "live", "live"]);
    expect(totals([])(3)).toBe(0);
  });

  it("keeps only the shared part when a history diverges", () => {
    const { totals } = lengths();
    const [a, b] = [message("a"), message("bb")];
    totals([a, b, message("ccc")]);
    expect(totals([a, message("x")])(2)).toBe(2);
    expect(totals([a, b])(2)).toBe(3);
  });

  it("warms the totals of a long history in slices, with turns of the event loop between them, then counts nothing", async () => {
    const calls: string[] = [];
    // Slow enough per message that the history takes several slices.
    const totals = historyTotals(
      (m: ChatMessage) => {
        calls.push(m.id);
        const until = performance.now() + 0.05;
        while (performance.now() < until);
        return m.id.length;
      },
      (x, y) => x + y,
      0,
    );
    const history = [...Array.from({ length: 2_000 }, (_, i) => message(`m${i}`)), message("live", "streaming")];
    expect(totals.known(history)).toBe(0);
    let turns = 0;
    let warming = true;
    const tick = () => {
      if (!warming) return;
      turns++;
      setImmediate(tick);
    };
    setImmediate(tick);
    await totals.warm(history);
    warming = false;
    // About 100 ms of counting in slices of about 8 ms (before: no warm-up; the first totals counted in one go).
    expect(turns).toBeGreaterThanOrEqual(3);
    expect(totals.known(history)).toBe(2_000);
    expect(calls).toHaveLength(2_000);
    const expected = history.reduce((sum, m) => sum + m.id.length, 0);
    expect(totals(history)(history.length)).toBe(expected);
    // Only the streaming message is counted again.
    expect(calls.slice(2_000)).toEqual(["live"]);
    await totals.warm([]);
  });
});

describe("historyIndexOf", () => {
  it("finds ids like findIndex does, across turns, retries and streaming messages", () => {
    const indexOf = historyIndexOf();
    const [a, b, c] = [message("a"), message("b"), message("c")];
    const check = (history: ChatMessage[], ids: string[]) => {
      for (const id of ids) expect(indexOf(history, id)).toBe(history.findIndex((m) => m.id === id));
    };
    check([a, b, c], ["a", "b", "c", "x"]);
    // A retry cuts the history back; the cut ids are not found where they were.
    const retried = [a, message("c")];
    check(retried, ["a", "b", "c"]);
    const live = message("live", "streaming");
    check([a, b, c, message("d"), live], ["b", "d", "live", "c", "zz"]);
    expect(indexOf([], "a")).toBe(-1);
  });
});

describe("how much of a history the running totals hold", () => {
  it("counts the leading messages already folded, without folding more", () => {
    const counted: string[] = [];
    const totals = historyTotals(
      (m) => {
        counted.push(m.id);
        return 1;
      },
      (a, b) => a + b,
      0,
    );
    const history = Array.from({ length: 5 }, (_, i) => ({ id: `m${i}`, role: "user" as const, parts: [] }));
    expect(totals.known(history)).toBe(0);
    totals(history.slice(0, 3));
    expect(totals.known(history)).toBe(3);
    expect(counted).toEqual(["m0", "m1", "m2"]);
    // Another array from the same first message, with a replaced third message: only what they share is known.
    expect(totals.known([history[0]!, history[1]!, { ...history[2]! }])).toBe(2);
    expect(totals.known([])).toBe(0);
  });
});
