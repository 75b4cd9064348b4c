// What a model call costs: list prices per million tokens (input, cached input, output) of known OpenAI models,
// overridable by environment. The demo model and unknown models have no price unless the environment sets one.
import type { CallUsage } from "../chat-message.ts";

/** Dollars per million tokens. */
export type ModelPrice = { input: number; cachedInput: number; output: number };

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
  if (!known && input === undefined) return null;
  const base = known ?? { input: input!, cachedInput: input!, output: 0 };
  return { input: input ?? base.input, cachedInput: cachedInput ?? base.cachedInput, output: output ?? base.output };
}

/** Dollars for one call: uncached input at the input price, cached input at its price, output at the output price. */
export function callCost(usage: CallUsage, price: ModelPrice): number | null {
  if (usage.inputTokens === undefined) return null;
  const cached = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
  const cost = (usage.inputTokens - cached) * price.input + cached * price.cachedInput + (usage.outputTokens ?? 0) * price.output;
  return cost / 1_000_000;
}
