import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { applyBreakpoints, breakpointPlan, createBreakpointTracker, MAX_BREAKPOINTS } from "./cache-breakpoints.ts";

const user = (text: string): ModelMessage => ({ role: "user", content: text });
const assistant = (text: string): ModelMessage => ({ role: "assistant", content: text });
const marked = (m: { providerOptions?: unknown }) => JSON.stringify(m.providerOptions ?? {}).includes("ephemeral");

describe("breakpointPlan", () => {
  it("marks the system prompt and the newest message of the first call", () => {
    expect(breakpointPlan({ messageCount: 1 })).toEqual({ system: true, messages: [0] });
    expect(breakpointPlan({ messageCount: 0 })).toEqual({ system: true, messages: [] });
  });

  it("keeps the previous call's newest message marked, never more than 4 in all", () => {
    expect(breakpointPlan({ messageCount: 5, previousNewest: 2 })).toEqual({ system: true, messages: [2, 4] });
    // Gone (past the end) or not before the newest: not marked.
    expect(breakpointPlan({ messageCount: 3, previousNewest: 2 })).toEqual({ system: true, messages: [2] });
    expect(breakpointPlan({ messageCount: 3, previousNewest: 7 })).toEqual({ system: true, messages: [2] });
    expect(breakpointPlan({ messageCount: 3, previousNewest: -1 })).toEqual({ system: true, messages: [2] });
    // With a last message that goes away (a replace status), the last kept one is marked too.
    const replace = breakpointPlan({ messageCount: 9, previousNewest: 4, lastKept: 7 });
    expect(replace).toEqual({ system: true, messages: [4, 7, 8] });
    for (let n = 0; n < 40; n++) {
      for (const previousNewest of [undefined, 0, n - 3, n - 1, n + 2]) {
        for (const lastKept of [undefined, n - 2, n - 1, 0]) {
          const plan = breakpointPlan({ messageCount: n, previousNewest, lastKept });
          expect(plan.messages.length + (plan.system ? 1 : 0)).toBeLessThanOrEqual(MAX_BREAKPOINTS);
          expect([...plan.messages].sort((a, b) => a - b)).toEqual(plan.messages);
          expect(new Set(plan.messages).size).toBe(plan.messages.length);
          if (n > 0) expect(plan.messages.at(-1)).toBe(n - 1);
        }
      }
    }
  });
});

describe("applyBreakpoints", () => {
  it("marks copies through the AI SDK's provider options and leaves the inputs unchanged", () => {
    const messages = [user("a"), assistant("b"), user("c")];
    const before = JSON.stringify(messages);
    const out = applyBreakpoints("You help.", messages, { system: true, messages: [0, 2] });
    expect(out.instructions).toEqual({
      role: "system",
      content: "You help.",
      providerOptions: { anthropic: { cacheControl: { type: "ephemeral" } } },
    });
    expect(out.messages.map(marked)).toEqual([true, false, true]);
    expect(out.messages[1]).toBe(messages[1]);
    expect(JSON.stringify(messages)).toBe(before);
    // An empty system prompt cannot carry a mark.
    expect(applyBreakpoints("", messages, { system: true, messages: [] }).instructions).toBe("");
  });
});

describe("createBreakpointTracker", () => {
  it("follows an append-only conversation: each call marks its newest message and the previous call's", () => {
    const tracker = createBreakpointTracker();
    const history: ModelMessage[] = [user("first")];
    expect(tracker.mark("S", history).plan.messages).toEqual([0]);
    history.push(assistant("tool call"), { role: "user", content: [{ type: "text", text: "<hint>time</hint>" }] });
    expect(tracker.mark("S", history).plan.messages).toEqual([0, 2]);
    history.push(assistant("done"), user("next"));
    expect(tracker.mark("S", history).plan.messages).toEqual([2, 4]);
  });

  it("drops the previous mark when the history was replaced (a compression) or changed there", () => {
    const tracker = createBreakpointTracker();
    tracker.mark("S", [user("a"), assistant("b"), user("c")]);
    expect(tracker.mark("S", [user("summary"), user("d")]).plan.messages).toEqual([1]);
    tracker.mark("S", [user("a"), assistant("b"), user("c")]);
    expect(tracker.mark("S", [user("a"), assistant("b"), user("C!"), user("d")]).plan.messages).toEqual([3]);
  });

  it("under the replace strategy, finds the last kept message's mark again on the next call", () => {
    const tracker = createBreakpointTracker();
    const base = [user("a"), assistant("b"), user("c")];
    expect(tracker.mark("S", [...base, user("<status 1>")], { lastKept: 2 }).plan.messages).toEqual([2, 3]);
    const next = [...base, assistant("d"), user("e")];
    expect(tracker.mark("S", [...next, user("<status 2>")], { lastKept: 4 }).plan.messages).toEqual([2, 4, 5]);
  });
});

describe("the cache's TTL", () => {
  it("puts ttl 1h on every mark when asked, and no ttl (Anthropic's 5 minutes) by default", () => {
    const tracker = createBreakpointTracker();
    const messages = [user("a"), assistant("b"), user("c")];
    tracker.mark("system", messages.slice(0, 1));
    const hour = tracker.mark("system", messages, { ttl: "1h" });
    const marks = [hour.instructions, ...hour.messages].flatMap((m) =>
      typeof m === "object" && m.providerOptions?.anthropic ? [m.providerOptions.anthropic.cacheControl] : [],
    );
    expect(marks).toEqual([
      { type: "ephemeral", ttl: "1h" },
      { type: "ephemeral", ttl: "1h" },
      { type: "ephemeral", ttl: "1h" },
    ]);
    const plain = applyBreakpoints("system", messages, { system: true, messages: [2] });
    expect(JSON.stringify(plain)).not.toContain("ttl");
  });
});
