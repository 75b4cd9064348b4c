import { describe, expect, it } from "vitest";
import type { ContextUsage } from "../chat-message.ts";
import { splitForCompression } from "./compression.ts";
import {
  automaticCompressionDue,
  type CompressionLeft,
  growthNeeded,
  type HoldFields,
  keepBudget,
  settleCompression,
  stuckNoticeText,
} from "./compression-hold.ts";

const WINDOW = 4096;
const RATIOS = { triggerRatio: 0.8, reserveRatio: 0.1 };
const due = (inputTokens: number, left?: CompressionLeft, contextWindow = WINDOW) =>
  automaticCompressionDue({ inputTokens, contextWindow, ...RATIOS, left });

const usage = (breakdown: NonNullable<ContextUsage["breakdown"]>, contextWindow = WINDOW): ContextUsage => {
  const inputTokens = Object.values(breakdown).reduce((a, b) => a + b, 0);
  return { inputTokens, contextWindow, triggerTokens: 0.8 * contextWindow, bufferStartTokens: 0, breakdown };
};

describe("the hold after a compression", () => {
  it("asks for 15 % of the window's growth (the reserve when larger) since the figure the last compression left", () => {
    expect(growthNeeded(0.1, WINDOW)).toBe(615);
    expect(growthNeeded(0.2, WINDOW)).toBe(820);
    const left = { inputTokens: 3200, contextWindow: WINDOW };
    expect(due(3200 + 614, left)).toBe(false);
    expect(due(3200 + 615, left)).toBe(true);
    // Under the trigger nothing is due, however much it grew.
    expect(due(3276, { inputTokens: 1000, contextWindow: WINDOW })).toBe(false);
    expect(due(3277, { inputTokens: 1000, contextWindow: WINDOW })).toBe(true);
  });

  it("compresses anyway once the input would no longer fit (95 % of the window)", () => {
    const left = { inputTokens: 3800, contextWindow: WINDOW };
    expect(due(3891, left)).toBe(false);
    expect(due(3892, left)).toBe(true);
  });

  it("decides by the trigger alone without a figure, or with one measured against another window", () => {
    expect(due(3277)).toBe(true);
    expect(due(3276)).toBe(false);
    expect(due(3300, { inputTokens: 3290, contextWindow: 8192 })).toBe(true);
  });

  it("on a 4,096 window with a fixed part of 72 %, 8 turns of 120-word replies compress at most 3 times, never on two turns in a row", () => {
    // A model of prepare-context with the demo model's figures (measured): the person's message (~20 tokens) and a
    // 120-word reply with its hints (~200); a summary of ~130 tokens, ~250 from the second on; the kept messages within
    // keepBudget. Measured before each turn's reply, as prepare-context does.
    const fixed = 2965;
    const run = ({ hold }: { hold: boolean }) => {
      let messages: number[] = [];
      let summary = 0;
      let left: CompressionLeft | undefined;
      const compressedAt: number[] = [];
      const input = () => fixed + summary + messages.reduce((a, b) => a + b, 0);
      for (let turn = 0; turn < 8; turn++) {
        messages.push(20);
        if (due(input(), hold ? left : undefined)) {
          compressedAt.push(turn);
          const budget = keepBudget({ contextWindow: WINDOW, ...RATIOS, fixedTokens: fixed, summaryTokens: summary });
          messages = splitForCompression(messages, (n) => n, budget).keep;
          summary = summary ? 250 : 130;
          left = { inputTokens: input(), contextWindow: WINDOW };
        }
        messages.push(200);
      }
      return compressedAt;
    };
    const consecutive = (turns: number[]) => turns.some((turn, i) => i > 0 && turn === turns[i - 1]! + 1);
    const held = run({ hold: true });
    expect(held.length).toBeGreaterThan(0);
    expect(held.length).toBeLessThanOrEqual(3);
    expect(consecutive(held)).toBe(false);
    // Without the hold the same turns compress turn after turn.
    const unheld = run({ hold: false });
    expect(unheld.length).toBeGreaterThan(3);
    expect(consecutive(unheld)).toBe(true);
  });

  it("keeps fewer messages verbatim when the fixed part and the summary leave less room than the reserve under the trigger", () => {
    const keep = (fixedTokens: number, summaryTokens: number) =>
      keepBudget({ contextWindow: WINDOW, ...RATIOS, fixedTokens, summaryTokens });
    expect(keep(1400, 300)).toBeCloseTo(409.6);
    expect(keep(2965, 0)).toBe(311);
    expect(keep(2965, 250)).toBe(61);
    expect(keep(3300, 0)).toBe(0);
  });
});

describe("the notice when a compression cannot get under the trigger", () => {
  const stuckUsage = usage({ system: 2400, tools: 700, summary: 120, messages: 300, hints: 30 });

  it("keeps the figure left and tells what fills the window once per window size", () => {
    const first = settleCompression<HoldFields>({}, stuckUsage, RATIOS);
    expect(first.state).toEqual({ left: { inputTokens: 3550, contextWindow: WINDOW }, stuckToldFor: WINDOW });
    expect(first.stuck).toEqual({
      contextWindow: WINDOW,
      inputTokens: 3550,
      triggerTokens: 3276,
      growthTokens: 615,
      breakdown: { system: 2400, tools: 700, summary: 120, messages: 300, hints: 30 },
    });
    // The next compression in the same window leaves it stuck again: nothing told, the figure kept.
    const again = settleCompression(first.state, usage({ ...stuckUsage.breakdown!, messages: 500 }), RATIOS);
    expect(again.stuck).toBeUndefined();
    expect(again.state).toEqual({ left: { inputTokens: 3750, contextWindow: WINDOW }, stuckToldFor: WINDOW });
    // Another window: told again.
    const wider = usage({ system: 5000, tools: 1300, summary: 100, messages: 300, hints: 0 }, 8192);
    expect(settleCompression(again.state, wider, RATIOS).stuck?.contextWindow).toBe(8192);
  });

  it("tells nothing when the compression got under the trigger", () => {
    const fine = settleCompression<HoldFields>(
      {},
      usage({ system: 2000, tools: 700, summary: 100, messages: 300, hints: 0 }),
      RATIOS,
    );
    expect(fine).toEqual({ state: { left: { inputTokens: 3100, contextWindow: WINDOW } } });
  });

  it("says in words what fills the window and what to do", () => {
    const { what, todo } = stuckNoticeText(settleCompression<HoldFields>({}, stuckUsage, RATIOS).stuck!);
    expect(what).toBe(
      "After compressing, the context still holds 3,550 of this model's 4,096 tokens, over the 3,276 at which it is " +
        "compressed: the system prompt takes 2,400, the tool definitions 700, the summary 120 and the messages kept " +
        "330. Compressing again would not make room, so the next compression waits until the conversation has grown " +
        "by about 615 tokens.",
    );
    expect(todo.join("\n")).toMatch(
      /OLLAMA_CONTEXT_LENGTH[\s\S]*num_ctx[\s\S]*tools and MCP servers[\s\S]*instructions, its memory and its knowledge index/,
    );
  });
});
