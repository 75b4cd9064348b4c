import { describe, expect, it } from "vitest";
import { type CallFigures, costRollup, sumCalls } from "./cost-rollup";

const call = (
  inputTokens: number | null,
  cachedInputTokens: number | null,
  outputTokens: number | null,
  cost: number | null,
): CallFigures => ({
  inputTokens,
  cachedInputTokens,
  outputTokens,
  cost,
});
const child = (agentKey: string, calls: CallFigures[], depth = 1) => ({
  agentKey,
  agentId: "general-purpose",
  conversationId: `c-${agentKey}`,
  status: "done",
  depth,
  calls,
});

describe("costRollup", () => {
  it("adds each child's tokens and cost to the parent's own for the total", () => {
    const rollup = costRollup(
      [call(1000, 800, 50, 0.002), call(1200, 1000, 60, 0.0021)],
      [
        child("agent:general-purpose:1", [call(400, 0, 30, 0.001)]),
        child("agent:general-purpose:2", [call(500, 100, 40, 0.0012), call(700, 500, 20, 0.0009)]),
      ],
    );
    expect(rollup.own).toMatchObject({ calls: 2, inputTokens: 2200, cachedInputTokens: 1800, outputTokens: 110 });
    expect(rollup.own.cost).toBeCloseTo(0.0041, 10);
    expect(rollup.children.map((c) => [c.agentKey, c.calls, c.inputTokens, c.outputTokens])).toEqual([
      ["agent:general-purpose:1", 1, 400, 30],
      ["agent:general-purpose:2", 2, 1200, 60],
    ]);
    expect(rollup.subagents).toMatchObject({ calls: 3, inputTokens: 1600, cachedInputTokens: 600, outputTokens: 90 });
    expect(rollup.subagents.cost).toBeCloseTo(0.0031, 10);
    expect(rollup.total).toMatchObject({ calls: 5, inputTokens: 3800, cachedInputTokens: 2400, outputTokens: 200 });
    expect(rollup.total.cost).toBeCloseTo(0.0072, 10);
  });

  it("has no cost where no call was priced, and a partial one where some were", () => {
    const unpriced = costRollup([call(10, 0, 5, null)], [child("agent:a:1", [call(20, 0, 5, null)])]);
    expect(unpriced.total.cost).toBeNull();
    expect(unpriced.subagents.cost).toBeNull();
    const mixed = costRollup([call(10, 0, 5, null)], [child("agent:a:1", [call(20, 0, 5, 0.5)])]);
    expect(mixed.own.cost).toBeNull();
    expect(mixed.total.cost).toBe(0.5);
  });

  it("a conversation without children totals its own figures; stored nonsense counts as nothing", () => {
    const rollup = costRollup([call(100, null, 7, 0.01)], []);
    expect(rollup.total).toEqual(rollup.own);
    expect(rollup.subagents).toEqual({ calls: 0, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, cost: null });
    const odd = sumCalls([call(-5, Number.NaN, Number.POSITIVE_INFINITY, -1)]);
    expect(odd).toEqual({ calls: 1, inputTokens: 0, cachedInputTokens: 0, outputTokens: 0, cost: null });
    expect(
      costRollup([], [{ ...child("agent:a:1", []), calls: "x" as unknown as CallFigures[] }]).subagents.calls,
    ).toBe(0);
  });
});
