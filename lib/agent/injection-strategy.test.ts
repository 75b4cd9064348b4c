import { describe, expect, it } from "vitest";
import {
  appendCost,
  appendIsCheaper,
  cachedPriceRatio,
  DEFAULT_CACHED_PRICE_RATIO,
  decideStrategy,
  NO_FIGURES,
  parseStrategyFigures,
  recordCall,
  replaceCost,
  type StrategyFigures,
} from "./injection-strategy.ts";

describe("the cost model", () => {
  it("prices replace as the suffix paid uncached and append as the stale statuses paid cached", () => {
    // S = 100, R = 400, N = 10, α = 0.5: replace 9 × 0.5 × 400 = 1800; append 0.5 × 100 × 10 × 9 / 2 = 2250.
    expect(replaceCost({ N: 10, R: 400, alpha: 0.5 })).toBe(1800);
    expect(appendCost({ N: 10, S: 100, alpha: 0.5 })).toBe(2250);
    expect(replaceCost({ N: 1, R: 400, alpha: 0.5 })).toBe(0);
    expect(appendCost({ N: 1, S: 100, alpha: 0.5 })).toBe(0);
    // Fully priced cache (α = 1): replace is free, append pays everything; free cache (α = 0): the reverse.
    expect(replaceCost({ N: 10, R: 400, alpha: 1 })).toBe(0);
    expect(appendCost({ N: 10, S: 100, alpha: 0 })).toBe(0);
  });

  it("prefers append exactly while αSN/2 < (1−α)R", () => {
    // α = 0.5, S = 100, R = 400: append while 25N < 200, i.e. up to N = 7.
    const at = (N: number) => appendIsCheaper({ S: 100, R: 400, N, alpha: 0.5 });
    expect([6, 7, 8, 9].map(at)).toEqual([true, true, false, false]);
    // The rule agrees with the marginal costs: adding the N-th update costs append αS(N−1), replace (1−α)R.
    for (let N = 2; N < 30; N++) {
      const appendStep = appendCost({ N, S: 100, alpha: 0.25 }) - appendCost({ N: N - 1, S: 100, alpha: 0.25 });
      const replaceStep = replaceCost({ N, R: 300, alpha: 0.25 }) - replaceCost({ N: N - 1, R: 300, alpha: 0.25 });
      expect(appendStep).toBeCloseTo(0.25 * 100 * (N - 1));
      expect(replaceStep).toBeCloseTo(0.75 * 300);
    }
  });

  it("takes α from the model's prices, 0.5 when unknown", () => {
    expect(cachedPriceRatio({ input: 0.15, cachedInput: 0.075 })).toBe(0.5);
    expect(cachedPriceRatio({ input: 1.25, cachedInput: 0.125 })).toBeCloseTo(0.1);
    expect(cachedPriceRatio(null)).toBe(DEFAULT_CACHED_PRICE_RATIO);
    expect(cachedPriceRatio({ input: 0, cachedInput: 0 })).toBe(DEFAULT_CACHED_PRICE_RATIO);
    expect(cachedPriceRatio({ input: 1, cachedInput: 3 })).toBe(1);
  });
});

describe("the strategy rules", () => {
  const figures = (f: Partial<StrategyFigures>): StrategyFigures => ({ ...NO_FIGURES, ...f });

  it("does what is configured under append and replace, and says so", () => {
    for (const configured of ["append", "replace"] as const) {
      const known = figures({ calls: 50, updates: 50, statusTokens: 5000, statuses: 50, suffixTokens: 100, suffixes: 49 });
      const d = decideStrategy({ configured, figures: known, statusTokens: 100, changed: true, alpha: 0.5 });
      expect(d).toMatchObject({ configured, chosen: configured, reason: `configured: ${configured}`, N: 51, S: 100 });
    }
  });

  it("under auto appends until the suffix is known, then follows the rule with the running means, when the state changes every call", () => {
    const first = decideStrategy({ configured: "auto", figures: NO_FIGURES, statusTokens: 120, changed: true, alpha: 0.5 });
    expect(first).toMatchObject({ chosen: "append", S: 120, R: 0, N: 1 });
    expect(first.reason).toMatch(/no suffix/);
    // S = 100, R = 400, α = 0.5: append up to N = 7, replace from N = 8.
    let f = recordCall(NO_FIGURES, { statusTokens: 100, changed: true });
    const chosen: string[] = [];
    for (let call = 2; call <= 10; call++) {
      const d = decideStrategy({ configured: "auto", figures: f, statusTokens: 100, suffixTokens: 400, changed: true, alpha: 0.5 });
      expect(d.N).toBe(call);
      expect(d.R).toBe(400);
      chosen.push(d.chosen);
      f = recordCall(f, { statusTokens: 100, suffixTokens: 400, changed: true });
    }
    expect(chosen).toEqual(["append", "append", "append", "append", "append", "append", "replace", "replace", "replace"]);
    const six = figures({ calls: 6, updates: 6, statusTokens: 600, statuses: 6, suffixTokens: 2000, suffixes: 5 });
    const seven = recordCall(six, { statusTokens: 100, suffixTokens: 400, changed: true });
    const flip = decideStrategy({ configured: "auto", figures: seven, statusTokens: 100, suffixTokens: 400, changed: true, alpha: 0.5 });
    expect(flip.reason).toBe("αSN/2 = 200 ≥ (1−α)R = 200: replace is cheaper");
    // A cheap cache (α small) keeps append much longer.
    const forty = figures({ calls: 40, updates: 40, statusTokens: 4000, statuses: 40, suffixTokens: 16_000, suffixes: 39 });
    expect(decideStrategy({ configured: "auto", figures: forty, statusTokens: 100, changed: true, alpha: 0.1 }).chosen).toBe("append");
  });

  it("under auto keeps appending while the state rarely changes: N counts changes, and R spans the calls between them", () => {
    // Sixty calls of 212 new tokens each, the state changing every 15th call (the bench's shape): append all along.
    let f = NO_FIGURES;
    const chosen = new Set<string>();
    for (let call = 1; call <= 60; call++) {
      const changed = call % 15 === 1;
      const d = decideStrategy({ configured: "auto", figures: f, statusTokens: 131, suffixTokens: call > 1 ? 212 : undefined, changed, alpha: 0.5 });
      chosen.add(d.chosen);
      f = recordCall(f, { statusTokens: 131, suffixTokens: call > 1 ? 212 : undefined, changed });
    }
    expect([...chosen]).toEqual(["append"]);
    expect(f).toMatchObject({ calls: 60, updates: 4, suffixes: 3, suffixTokens: 3 * 15 * 212, openSuffix: 14 * 212 });
    // Counting every call as an update (the state changing every call), the same figures pick replace.
    let g = NO_FIGURES;
    let last = "";
    for (let call = 1; call <= 60; call++) {
      last = decideStrategy({ configured: "auto", figures: g, statusTokens: 131, suffixTokens: call > 1 ? 212 : undefined, changed: true, alpha: 0.5 }).chosen;
      g = recordCall(g, { statusTokens: 131, suffixTokens: call > 1 ? 212 : undefined, changed: true });
    }
    expect(last).toBe("replace");
  });

  it("keeps the figures as running sums, closes a gap at each update, and reads stored ones defensively", () => {
    let f = recordCall(NO_FIGURES, { statusTokens: 90, suffixTokens: 10, changed: true });
    f = recordCall(f, { statusTokens: 110, suffixTokens: 30, changed: false });
    f = recordCall(f, { statusTokens: 100, suffixTokens: 5, changed: true });
    f = recordCall(f, { statusTokens: 100, suffixTokens: 7, changed: false });
    expect(f).toEqual({ calls: 4, updates: 2, statusTokens: 400, statuses: 4, suffixTokens: 35, suffixes: 1, openSuffix: 7 });
    expect(parseStrategyFigures(JSON.parse(JSON.stringify(f)))).toEqual(f);
    expect(parseStrategyFigures({ ...f, calls: -1 })).toBeUndefined();
    expect(parseStrategyFigures({ ...f, suffixes: "2" })).toBeUndefined();
    expect(parseStrategyFigures(null)).toBeUndefined();
  });
});
