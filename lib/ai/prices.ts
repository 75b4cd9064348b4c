// What a model call costs: list prices per million tokens (input, cached input, cache writes, output) of known
// OpenAI, Anthropic and Gemini models, overridable by environment. The demo model and unknown models have no price
// unless the environment sets one.
import type { CallUsage } from "../chat-message.ts";

/** Dollars per million tokens. `cacheWrite`: input written to the cache, where it costs more (Anthropic: 1.25×). */
export type ModelPrice = { input: number; cachedInput: number; output: number; cacheWrite?: number };

/** Anthropic bills cache reads at 0.1× and (5-minute) cache writes at 1.25× the input price. */
const claude = (input: number, output: number): ModelPrice => ({
  input,
  cachedInput: input / 10,
  output,
  cacheWrite: (input * 5) / 4,
});

type Env = Record<string, string | undefined>;

// Public list prices (standard tier). Longer, more specific ids first: the first prefix that matches wins.
const PRICES: ReadonlyArray<readonly [string, ModelPrice]> = [
  ["gpt-4.1-nano", { input: 0.1, cachedInput: 0.025, output: 0.4 }],
  ["gpt-4.1-mini", { input: 0.4, cachedInput: 0.1, output: 1.6 }],
  ["gpt-4.1", { input: 2.0, cachedInput: 0.5, output: 8.0 }],
  ["gpt-4o-mini", { input: 0.15, cachedInput: 0.075, output: 0.6 }],
  ["gpt-4o", { input: 2.5, cachedInput: 1.25, output: 10.0 }],
  ["gpt-5-nano", { input: 0.05, cachedInput: 0.005, output: 0.4 }],
  ["gpt-5-mini", { input: 0.25, cachedInput: 0.025, output: 2.0 }],
  ["gpt-5", { input: 1.25, cachedInput: 0.125, output: 10.0 }],
  ["o4-mini", { input: 1.1, cachedInput: 0.275, output: 4.4 }],
  ["o3-mini", { input: 1.1, cachedInput: 0.55, output: 4.4 }],
  ["o3", { input: 2.0, cachedInput: 0.5, output: 8.0 }],
  // Anthropic (the 4.5 and later Opus are cheaper than Opus 4 and 4.1).
  ["claude-opus-4-5", claude(5, 25)],
  ["claude-opus-4-6", claude(5, 25)],
  ["claude-opus-4-7", claude(5, 25)],
  ["claude-opus-4-8", claude(5, 25)],
  ["claude-opus-4", claude(15, 75)],
  ["claude-sonnet-4", claude(3, 15)],
  ["claude-haiku-4-5", claude(1, 5)],
  ["claude-3-5-haiku", claude(0.8, 4)],
  ["claude-3-haiku", claude(0.25, 1.25)],
  // Gemini (prompts up to 200k tokens; implicit cache reads at a quarter or a tenth of the input price).
  ["gemini-2.5-pro", { input: 1.25, cachedInput: 0.125, output: 10.0 }],
  ["gemini-2.5-flash-lite", { input: 0.1, cachedInput: 0.01, output: 0.4 }],
  ["gemini-2.5-flash", { input: 0.3, cachedInput: 0.03, output: 2.5 }],
  ["gemini-2.0-flash-lite", { input: 0.075, cachedInput: 0.075, output: 0.3 }],
  ["gemini-2.0-flash", { input: 0.1, cachedInput: 0.025, output: 0.4 }],
  ["gemini-3-pro", { input: 2.0, cachedInput: 0.2, output: 12.0 }],
  ["gemini-3-flash", { input: 0.5, cachedInput: 0.05, output: 3.0 }],
];

function envPrice(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * The price of `modelId`: the table's (by id, a provider prefix such as `openai/` ignored), with each figure the
 * environment sets (HINTLINE_PRICE_INPUT, HINTLINE_PRICE_CACHED_INPUT, HINTLINE_PRICE_OUTPUT) put over it. For a
 * model the table does not know, the environment must set at least the input price; cached input then defaults to
 * the input price and output to 0.
 */
export function priceFor(modelId: string, env: Env = process.env): ModelPrice | null {
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  const known = PRICES.find(([prefix]) => id === prefix || id.startsWith(`${prefix}-`))?.[1];
  const input = envPrice(env.HINTLINE_PRICE_INPUT);
  const cachedInput = envPrice(env.HINTLINE_PRICE_CACHED_INPUT);
  const output = envPrice(env.HINTLINE_PRICE_OUTPUT);
  const cacheWrite = envPrice(env.HINTLINE_PRICE_CACHE_WRITE);
  if (!known && input === undefined) return null;
  const base = known ?? { input: input!, cachedInput: input!, output: 0 };
  const write = cacheWrite ?? base.cacheWrite;
  return {
    input: input ?? base.input,
    cachedInput: cachedInput ?? base.cachedInput,
    output: output ?? base.output,
    ...(write === undefined ? {} : { cacheWrite: write }),
  };
}

/**
 * Dollars for one call: input neither read from nor written to the cache at the input price, cache reads at the
 * cached price, cache writes at the write price (the input price where writes cost no more), output at its price.
 */
export function callCost(usage: CallUsage, price: ModelPrice): number | null {
  if (usage.inputTokens === undefined) return null;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const written = Math.min(usage.cacheWriteTokens ?? 0, usage.inputTokens - cached);
  const plain = usage.inputTokens - cached - written;
  const cost =
    plain * price.input +
    cached * price.cachedInput +
    written * (price.cacheWrite ?? price.input) +
    (usage.outputTokens ?? 0) * price.output;
  return cost / 1_000_000;
}

/** What writing a token to the cache costs relative to sending it uncached (1 where writes cost no more). */
export function cacheWriteRatio(price: ModelPrice | null | undefined): number {
  if (!price || !(price.input > 0) || price.cacheWrite === undefined || !Number.isFinite(price.cacheWrite)) return 1;
  return Math.max(1, price.cacheWrite / price.input);
}
