// What a model call costs: list prices per million tokens (input, cached input, cache writes, output) of the model
// families the table knows (./model-families.ts, with where each figure came from), overridable by environment. The
// demo model and unknown models have no price unless the environment sets one.
import type { CallUsage } from "../chat-message.ts";
import { anthropicCacheTtl, modelFamily } from "./model-families.ts";

/** Dollars per million tokens. `cacheWrite`: input written to the cache, where it costs more (Anthropic: 1.25×). */
export type ModelPrice = { input: number; cachedInput: number; output: number; cacheWrite?: number };

type Env = Record<string, string | undefined>;

/** A price worked out from a multiplier, without the float's tail (0.05 × 0.1 is 0.005, not 0.005000000000000001). */
const dollars = (n: number) => Math.round(n * 1e9) / 1e9;

/** The family's price; Anthropic's writes at the TTL in force (HINTLINE_ANTHROPIC_CACHE_TTL). */
function familyPrice(modelId: string, env: Env): ModelPrice | undefined {
  const family = modelFamily(modelId);
  if (!family) return undefined;
  const write = family.provider === "anthropic" && anthropicCacheTtl(env) === "1h" ? family.write1h : family.write5m;
  return {
    input: family.input,
    cachedInput: dollars(family.input * family.read),
    output: family.output,
    ...(write === undefined ? {} : { cacheWrite: dollars(family.input * write) }),
  };
}

function envPrice(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  const n = Number(value);
  return Number.isFinite(n) && n >= 0 ? n : undefined;
}

/**
 * The price of `modelId`: the table's (by id, a provider prefix such as `openai/` ignored), with each figure the
 * environment sets (HINTLINE_PRICE_INPUT, HINTLINE_PRICE_CACHED_INPUT, HINTLINE_PRICE_OUTPUT,
 * HINTLINE_PRICE_CACHE_WRITE) put over it. For a
 * model the table does not know, the environment must set at least the input price; cached input then defaults to
 * the input price and output to 0.
 */
export function priceFor(modelId: string, env: Env = process.env): ModelPrice | null {
  const known = familyPrice(modelId, env);
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
