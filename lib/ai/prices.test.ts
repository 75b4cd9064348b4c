import { describe, expect, it } from "vitest";
import { contextWindowFor } from "./context-windows.ts";
import { minCacheTokens } from "./model-families.ts";
import { cacheWriteRatio, callCost, priceFor } from "./prices.ts";

describe("model prices", () => {
  it("knows OpenAI list prices by model id, the most specific family first", () => {
    expect(priceFor("gpt-4o-mini", {})).toEqual({ input: 0.15, cachedInput: 0.075, output: 0.6 });
    expect(priceFor("gpt-4o-2024-08-06", {})).toEqual({ input: 2.5, cachedInput: 1.25, output: 10 });
    expect(priceFor("openai/gpt-4.1-mini", {})).toEqual({ input: 0.4, cachedInput: 0.1, output: 1.6 });
    expect(priceFor("gpt-4.1", {})).toEqual({ input: 2, cachedInput: 0.5, output: 8 });
    expect(priceFor("gpt-5", {})).toEqual({ input: 1.25, cachedInput: 0.125, output: 10 });
    expect(priceFor("gpt-4", {})).toBeNull();
    expect(priceFor("gpt-4o-mini-2024-07-18", {})?.input).toBe(0.15);
  });

  it("has no price for the demo model or an unknown one unless the environment sets it", () => {
    expect(priceFor("hintline-demo", {})).toBeNull();
    expect(priceFor("llama3", { HINTLINE_PRICE_OUTPUT: "1" })).toBeNull();
    expect(priceFor("llama3", { HINTLINE_PRICE_INPUT: "0.5" })).toEqual({ input: 0.5, cachedInput: 0.5, output: 0 });
    expect(
      priceFor("hintline-demo", {
        HINTLINE_PRICE_INPUT: "1",
        HINTLINE_PRICE_CACHED_INPUT: "0.1",
        HINTLINE_PRICE_OUTPUT: "4",
      }),
    ).toEqual({
      input: 1,
      cachedInput: 0.1,
      output: 4,
    });
    // Each variable overrides its own figure of a known model; nonsense is ignored.
    expect(priceFor("gpt-4o-mini", { HINTLINE_PRICE_CACHED_INPUT: "0", HINTLINE_PRICE_OUTPUT: "cheap" })).toEqual({
      input: 0.15,
      cachedInput: 0,
      output: 0.6,
    });
    expect(priceFor("gpt-4o-mini", { HINTLINE_PRICE_INPUT: "-1" })).toEqual({
      input: 0.15,
      cachedInput: 0.075,
      output: 0.6,
    });
  });

  it("prices uncached input, cached input and output separately, per million tokens", () => {
    const price = { input: 2.5, cachedInput: 1.25, output: 10 };
    // 1,000 uncached + 9,000 cached input, 500 output: 0.0025 + 0.01125 + 0.005.
    expect(callCost({ inputTokens: 10_000, cachedInputTokens: 9_000, outputTokens: 500 }, price)).toBeCloseTo(
      0.01875,
      10,
    );
    expect(callCost({ inputTokens: 1_000_000, outputTokens: 0 }, price)).toBe(2.5);
    // Cached input never counts for more than the input.
    expect(callCost({ inputTokens: 100, cachedInputTokens: 500, outputTokens: 0 }, price)).toBeCloseTo(0.000125, 10);
    expect(callCost({}, price)).toBeNull();
  });
});

describe("Anthropic and Gemini prices", () => {
  it("know the current Claude models with reads at 0.1× and writes at 1.25× the input price", () => {
    expect(priceFor("anthropic/claude-sonnet-4-5", {})).toEqual({
      input: 3,
      cachedInput: 0.3,
      output: 15,
      cacheWrite: 3.75,
    });
    expect(priceFor("claude-sonnet-4-20250514", {})?.input).toBe(3);
    expect(priceFor("anthropic/claude-opus-4-1", {})).toMatchObject({ input: 15, output: 75, cacheWrite: 18.75 });
    expect(priceFor("anthropic/claude-opus-4-5", {})).toMatchObject({ input: 5, output: 25 });
    expect(priceFor("anthropic/claude-haiku-4-5-20251001", {})).toMatchObject({
      input: 1,
      output: 5,
      cacheWrite: 1.25,
    });
    expect(priceFor("google/gemini-2.5-pro", {})).toEqual({ input: 1.25, cachedInput: 0.125, output: 10 });
    expect(priceFor("google/gemini-2.5-flash", {})?.input).toBe(0.3);
    expect(priceFor("google/gemini-2.5-flash-lite", {})?.input).toBe(0.1);
    expect(cacheWriteRatio(priceFor("anthropic/claude-sonnet-4-5", {}))).toBeCloseTo(1.25, 10);
    expect(cacheWriteRatio(priceFor("gpt-4o", {}))).toBe(1);
    expect(priceFor("gpt-4o", { HINTLINE_PRICE_CACHE_WRITE: "3" })?.cacheWrite).toBe(3);
  });

  it("price cache writes at the write price and reads at the read price", () => {
    const price = { input: 3, cachedInput: 0.3, output: 15, cacheWrite: 3.75 };
    // 10,000 input: 6,000 read, 3,000 written, 1,000 plain; 100 output.
    const cost = callCost(
      { inputTokens: 10_000, cachedInputTokens: 6_000, cacheWriteTokens: 3_000, outputTokens: 100 },
      price,
    )!;
    expect(cost).toBeCloseTo((1_000 * 3 + 6_000 * 0.3 + 3_000 * 3.75 + 100 * 15) / 1e6, 12);
    // A price without a write figure bills writes as plain input.
    expect(
      callCost({ inputTokens: 1000, cacheWriteTokens: 1000 }, { input: 1, cachedInput: 0.5, output: 0 }),
    ).toBeCloseTo(0.001, 12);
  });
});

describe("the 2026 cache and price model, per model family", () => {
  it("prices reads per model: 0.05× on Sonnet 5.5, 0.025× on Fable and Mythos 5.1, 0.1× on Sonnet 4.5", () => {
    expect(priceFor("anthropic/claude-sonnet-5-5", {})).toEqual({
      input: 3,
      cachedInput: 0.15,
      output: 15,
      cacheWrite: 3.75,
    });
    expect(priceFor("claude-fable-5-1", {})).toMatchObject({ input: 10, cachedInput: 0.25, output: 50 });
    expect(priceFor("claude-mythos-5-1-20261101", {})).toMatchObject({ cachedInput: 0.25 });
    expect(priceFor("claude-fable-5", {})).toMatchObject({ cachedInput: 1, cacheWrite: 12.5 });
    expect(priceFor("claude-sonnet-4-5", {})?.cachedInput).toBe(0.3);
    // A family matches its dated ids, never a later family's (gpt-5 is not gpt-5.6).
    expect(priceFor("gpt-5.6-terra", {})).toEqual({ input: 2.5, cachedInput: 0.25, output: 15, cacheWrite: 3.125 });
    expect(priceFor("gpt-5.6-2026-06-27", {})).toMatchObject({ input: 5, cacheWrite: 6.25 });
    expect(priceFor("gpt-5.5", {})).toEqual({ input: 5, cachedInput: 0.5, output: 30 });
    expect(priceFor("gpt-5-2025-08-07", {})).toEqual({ input: 1.25, cachedInput: 0.125, output: 10 });
  });

  it("bills Anthropic's writes at 2× under HINTLINE_ANTHROPIC_CACHE_TTL=1h, at 1.25× otherwise", () => {
    const hour = { HINTLINE_ANTHROPIC_CACHE_TTL: "1h" };
    expect(priceFor("claude-sonnet-5-5", hour)?.cacheWrite).toBe(6);
    expect(cacheWriteRatio(priceFor("claude-sonnet-5-5", hour))).toBe(2);
    expect(cacheWriteRatio(priceFor("claude-sonnet-5-5", { HINTLINE_ANTHROPIC_CACHE_TTL: "2h" }))).toBe(1.25);
    // OpenAI's writes do not depend on Anthropic's TTL.
    expect(cacheWriteRatio(priceFor("gpt-5.6-luna", hour))).toBe(1.25);
    expect(cacheWriteRatio(priceFor("gpt-5.5", hour))).toBe(1);
  });

  it("knows each family's shortest cached prompt and the 1M windows", () => {
    expect(minCacheTokens("anthropic/claude-sonnet-5-5")).toBe(1024);
    expect(minCacheTokens("claude-haiku-4-5-20251001")).toBe(4096);
    expect(minCacheTokens("google/gemini-3-flash-preview")).toBe(4096);
    expect(minCacheTokens("gpt-4o-mini")).toBe(1024);
    expect(minCacheTokens("llama3")).toBeUndefined();
    expect(contextWindowFor("anthropic/claude-fable-5-2")).toBe(1_000_000);
    expect(contextWindowFor("claude-fable-5-1-20261001")).toBe(1_000_000);
    expect(contextWindowFor("anthropic/claude-sonnet-5-5")).toBe(200_000);
  });
});
