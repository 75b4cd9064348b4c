import { describe, expect, it } from "vitest";
import { parseAgentState } from "./agent-state.ts";

describe("the stored strategy decision", () => {
  const decision = {
    configured: "auto",
    chosen: "append",
    reason: "append ≈ 10 tokens a call, replace ≈ 260: append is cheaper",
    S: 130,
    h: 40,
    p: 0.1,
    M: 6,
    alpha: 0.05,
    alphaFrom: "prices",
    appendCost: 10,
    replaceCost: 260,
  };

  it("keeps w, the model's write price over its input price, where writes cost more (2 under the 1-hour cache)", () => {
    expect(parseAgentState({ strategyDecision: { ...decision, writeRatio: 2 } }).strategyDecision).toEqual({
      ...decision,
      writeRatio: 2,
    });
    // Absent where writes cost no more; a forged one is dropped, the decision kept.
    for (const writeRatio of [undefined, 1, 0.5, -2, "2", Number.NaN, null])
      expect(parseAgentState({ strategyDecision: { ...decision, writeRatio } }).strategyDecision).toEqual(decision);
  });
});
