import { describe, expect, it } from "vitest";
import {
  alphaFor,
  appendCost,
  cachedPriceRatio,
  type ChosenStrategy,
  DEFAULT_CACHED_PRICE_RATIO,
  decideStrategy,
  MEASURED_CALLS_MIN,
  measuredAlpha,
  NO_FIGURES,
  parseStrategyFigures,
  recordCall,
  recordHint,
  replaceCost,
  type StrategyFigures,
} from "./injection-strategy.ts";

describe("the cost model", () => {
  it("prices replace as its status paid uncached every call, append as its new hints paid once and re-read at α", () => {
    expect(replaceCost({ S: 130 })).toBe(130);
    // p = 0.5, h = 100: 50 new a call; over M = 11 calls each re-read 5 times on average at α = 0.5 → 50 × (1 + 2.5).
    expect(appendCost({ p: 0.5, h: 100, M: 11, alpha: 0.5 })).toBe(175);
    expect(appendCost({ p: 0.5, h: 100, M: 1, alpha: 0.5 })).toBe(50);
    // A provider that caches nothing (α = 1) re-reads every stale hint at full price; a free cache (α = 0) never.
    expect(appendCost({ p: 0.5, h: 100, M: 11, alpha: 1 })).toBe(300);
    expect(appendCost({ p: 0.5, h: 100, M: 11, alpha: 0 })).toBe(50);
    expect(appendCost({ p: 0, h: 100, M: 50, alpha: 1 })).toBe(0);
  });

  it("takes α from the model's prices, 0.5 when unknown", () => {
    expect(cachedPriceRatio({ input: 0.15, cachedInput: 0.075 })).toBe(0.5);
    expect(cachedPriceRatio({ input: 1.25, cachedInput: 0.125 })).toBeCloseTo(0.1);
    expect(cachedPriceRatio(null)).toBe(DEFAULT_CACHED_PRICE_RATIO);
    expect(cachedPriceRatio({ input: 0, cachedInput: 0 })).toBe(DEFAULT_CACHED_PRICE_RATIO);
    expect(cachedPriceRatio({ input: 1, cachedInput: 3 })).toBe(1);
  });

  it("measures α from what the provider cached: nothing cached re-reads at full price", () => {
    expect(measuredAlpha(0, 0.1)).toBe(1);
    expect(measuredAlpha(1, 0.1)).toBeCloseTo(0.1);
    expect(measuredAlpha(0.8, 0.5)).toBeCloseTo(0.6);
    expect(measuredAlpha(Number.NaN, 0.5)).toBe(1);
    expect(alphaFor(0.5, { calls: MEASURED_CALLS_MIN - 1, inputTokens: 1000, cachedInputTokens: 0 })).toEqual({
      alpha: 0.5,
      from: "prices",
    });
    expect(alphaFor(0.5, { calls: MEASURED_CALLS_MIN, inputTokens: 1000, cachedInputTokens: 0 })).toEqual({
      alpha: 1,
      from: "measured",
    });
    expect(alphaFor(0.1, { calls: 10, inputTokens: 1000, cachedInputTokens: 900 }).alpha).toBeCloseTo(0.19);
    expect(alphaFor(0.5)).toEqual({ alpha: 0.5, from: "prices" });
  });
});

describe("the strategy rules", () => {
  const figures = (f: Partial<StrategyFigures>): StrategyFigures => ({ ...NO_FIGURES, ...f });

  /** `calls` calls of a 130-token status under auto, the state changing when `changes(call)`; the choices made. */
  function run(calls: number, alpha: number, changes: (call: number) => boolean, hintTokens = 60): ChosenStrategy[] {
    let f = NO_FIGURES;
    let previous: ChosenStrategy | undefined;
    const chosen: ChosenStrategy[] = [];
    for (let call = 1; call <= calls; call++) {
      const changed = changes(call);
      const d = decideStrategy({ configured: "auto", figures: f, statusTokens: 130, changed, alpha, previous });
      chosen.push(d.chosen);
      previous = d.chosen;
      f = recordCall(f, { statusTokens: 130, changed });
      if (changed && d.chosen === "append") f = recordHint(f, hintTokens);
    }
    return chosen;
  }

  it("prices replace at this call's status, not the mean of earlier ones (a status grows with its task list)", () => {
    const small = figures({ calls: 8, updates: 8, statusTokens: 800, statuses: 8, hintTokens: 480, hints: 8 });
    const d = decideStrategy({ configured: "auto", figures: small, statusTokens: 220, changed: true, alpha: 0.1 });
    expect(d).toMatchObject({ S: 220, replaceCost: 220 });
  });

  it("does what is configured under append and replace, and says so", () => {
    for (const configured of ["append", "replace"] as const) {
      const known = figures({ calls: 50, updates: 50, statusTokens: 5000, statuses: 50, hintTokens: 3000, hints: 50 });
      const d = decideStrategy({ configured, figures: known, statusTokens: 100, changed: true, alpha: 0.5 });
      expect(d).toMatchObject({
        configured,
        chosen: configured,
        reason: `configured: ${configured}`,
        M: 51,
        S: 100,
        h: 60,
        p: 1,
      });
    }
  });

  it("under auto, a state that changes every call goes to replace sooner the dearer re-reading is", () => {
    const every = () => true;
    const firstReplace = (alpha: number) => run(60, alpha, every).indexOf("replace") + 1;
    // p = 1, h = 60, S = 130: append ≈ 60(1 + α(M−1)/2) a call; replace once that passes 130 / 0.8.
    expect(firstReplace(1)).toBe(5); // a provider that caches nothing
    expect(firstReplace(0.5)).toBe(8);
    expect(firstReplace(0.1)).toBe(36);
    // Once switched, it stays: append only becomes cheaper again with fewer changes.
    const chosen = run(60, 0.5, every);
    expect(chosen.slice(chosen.indexOf("replace")).every((c) => c === "replace")).toBe(true);
  });

  it("under auto keeps appending while the state rarely changes", () => {
    // The state changing every 15th call (the bench's shape): p ≈ 0.07, append all along even without a cache.
    expect(new Set(run(60, 0.5, (call) => call % 15 === 1))).toEqual(new Set(["append"]));
    expect(new Set(run(60, 1, (call) => call % 15 === 1))).toEqual(new Set(["append"]));
  });

  it("does not flip back and forth near the boundary (hysteresis), and explains each choice", () => {
    // Costs within 20 % of each other keep the previous choice, whichever it was.
    const near = figures({ calls: 9, updates: 9, statusTokens: 1170, statuses: 9, hintTokens: 540, hints: 9 });
    const fromAppend = decideStrategy({
      configured: "auto",
      figures: near,
      statusTokens: 130,
      changed: true,
      alpha: 0.2,
      previous: "append",
    });
    const fromReplace = decideStrategy({
      configured: "auto",
      figures: near,
      statusTokens: 130,
      changed: true,
      alpha: 0.2,
      previous: "replace",
    });
    expect(fromAppend.appendCost).toBe(114);
    expect(fromAppend.replaceCost).toBe(130);
    expect(fromAppend.chosen).toBe("append");
    expect(fromReplace.chosen).toBe("replace");
    expect(fromReplace.reason).toBe(
      "append ≈ 114 tokens a call, replace ≈ 130: append is cheaper, but not by enough to switch",
    );
    const far = decideStrategy({
      configured: "auto",
      figures: near,
      statusTokens: 130,
      changed: true,
      alpha: 1,
      previous: "append",
    });
    expect(far.reason).toBe("append ≈ 330 tokens a call, replace ≈ 130: replace is clearly cheaper");
    expect(far.chosen).toBe("replace");
  });

  it("counts the hints append sent as h, and the full status as h until one was sent", () => {
    const first = decideStrategy({
      configured: "auto",
      figures: NO_FIGURES,
      statusTokens: 120,
      changed: true,
      alpha: 0.5,
    });
    expect(first).toMatchObject({ chosen: "append", S: 120, h: 120, p: 1, M: 1 });
    const withHint = recordHint(recordCall(NO_FIGURES, { statusTokens: 120, changed: true }), 40);
    expect(
      decideStrategy({ configured: "auto", figures: withHint, statusTokens: 120, changed: false, alpha: 0.5 }),
    ).toMatchObject({ h: 40, p: 0.5, M: 2 });
  });

  it("keeps the figures as running sums and reads stored ones defensively", () => {
    let f = recordCall(NO_FIGURES, { statusTokens: 90, changed: true });
    f = recordHint(f, 30);
    f = recordCall(f, { statusTokens: 110, changed: false });
    expect(f).toEqual({ calls: 2, updates: 1, statusTokens: 200, statuses: 2, hintTokens: 30, hints: 1 });
    expect(parseStrategyFigures(JSON.parse(JSON.stringify(f)))).toEqual(f);
    // Figures stored before hints were counted read with none.
    expect(parseStrategyFigures({ calls: 4, updates: 2, statusTokens: 400, statuses: 4, suffixTokens: 35 })).toEqual({
      ...NO_FIGURES,
      calls: 4,
      updates: 2,
      statusTokens: 400,
      statuses: 4,
    });
    expect(parseStrategyFigures({ ...f, calls: -1 })).toBeUndefined();
    expect(parseStrategyFigures({ ...f, hints: "2" })).toBeUndefined();
    expect(parseStrategyFigures(null)).toBeUndefined();
  });
});

describe("the cost model with a cache-write premium", () => {
  it("bills a new hint's and each status's first send at w (Anthropic 1.25), re-reads at α", () => {
    expect(appendCost({ p: 1, h: 100, M: 1, alpha: 0.1, writeRatio: 1.25 })).toBeCloseTo(125, 10);
    expect(appendCost({ p: 0.5, h: 100, M: 11, alpha: 0.1, writeRatio: 1.25 })).toBeCloseTo(
      0.5 * 100 * (1.25 + 0.5),
      10,
    );
    expect(replaceCost({ S: 200, writeRatio: 1.25 })).toBe(250);
    expect(appendCost({ p: 1, h: 100, M: 1, alpha: 0.5 })).toBe(100);
    const decision = decideStrategy({
      configured: "auto",
      figures: NO_FIGURES,
      statusTokens: 100,
      changed: true,
      alpha: 0.1,
      writeRatio: 1.25,
    });
    expect(decision.writeRatio).toBe(1.25);
    expect(
      decideStrategy({ configured: "auto", figures: NO_FIGURES, statusTokens: 100, changed: true, alpha: 0.1 }),
    ).not.toHaveProperty("writeRatio");
  });
});
