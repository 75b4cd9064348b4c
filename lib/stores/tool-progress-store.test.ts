import { describe, expect, it } from "vitest";
import { progressText, useToolProgressStore } from "./tool-progress-store.ts";

describe("the running calls' progress", () => {
  it("says the progress in words, with or without a total and a message", () => {
    expect(progressText(undefined)).toBe("");
    expect(progressText({ toolCallId: "a" })).toBe("");
    expect(progressText({ toolCallId: "a", progress: 3, total: 5 })).toBe("3 of 5");
    expect(progressText({ toolCallId: "a", progress: 1234.5678 })).toBe("1,234.57");
    expect(progressText({ toolCallId: "a", progress: 0.5, total: 1, message: "Indexing" })).toBe("0.5 of 1 · Indexing");
    expect(progressText({ toolCallId: "a", message: "Starting" })).toBe("Starting");
  });

  it("keeps the newest report per call, drops odd values, and only the newest 20 calls", () => {
    const { receive } = useToolProgressStore.getState();
    receive({ toolCallId: "c1", progress: 1, total: 5 });
    receive({
      toolCallId: "c1",
      progress: Number.NaN,
      total: "5" as unknown as number,
      message: 7 as unknown as string,
    });
    expect(useToolProgressStore.getState().byCall.c1).toEqual({
      toolCallId: "c1",
      progress: undefined,
      total: undefined,
      message: undefined,
    });
    receive(null as never);
    for (let i = 0; i < 30; i++) receive({ toolCallId: `n${i}`, progress: i });
    const ids = Object.keys(useToolProgressStore.getState().byCall);
    expect(ids).toHaveLength(20);
    expect(ids.at(-1)).toBe("n29");
    expect(ids).not.toContain("c1");
  });
});
