// Append or replace: how a conversation keeps the agent's runtime state current (docs/injection.md, "strategy").
// append: a hint is added when the state changed, and stays in the history (every call extends the last).
// replace: one status with the full runtime state is the last message of every call and is gone from the next one.
// auto: prices what each actually sends, per call, with this conversation's own figures:
//   replace pays its status (S tokens) uncached on every call: it is the last message, and gone by the next call;
//   append pays a new hint (h tokens) when the state changed (a share p of the calls), and from then on re-reads it
//   on every later call at α, the price of re-reading tokens the provider has seen (cached) relative to new ones.
// Hints already in the history are re-read under either strategy, so they cancel out. Over a horizon of M calls
// (as many again as the conversation has made: a long conversation is likely to go on), per call:
//   C_append ≈ p·h·(w + α(M−1)/2)        C_replace ≈ S·w
// where w is what writing a token to the cache costs relative to sending it uncached: 1 where writes cost nothing
// extra (OpenAI, Gemini), 1.25 on Anthropic (a new hint and the replace status are each written once, as the newest
// message of their call).
// α comes from what this conversation's provider actually cached (its measured cached share; a provider that caches
// nothing re-reads at full price, α = 1), else from the price list. auto switches only when the other strategy is
// clearly cheaper (HYSTERESIS), so a figure near the boundary does not flip it back and forth. Pure: the caller keeps
// the figures and says, per call, whether the state changed and what the previous call chose.

export const INJECTION_STRATEGIES = ["append", "replace", "auto"] as const;
export type InjectionStrategy = (typeof INJECTION_STRATEGIES)[number];
export type ChosenStrategy = "append" | "replace";

/** α when the model has no known price: cached input at half the price, as OpenAI's older models bill it. */
export const DEFAULT_CACHED_PRICE_RATIO = 0.5;
/** auto switches only when the other strategy costs at most this share of the current one. */
export const HYSTERESIS = 0.8;
/** Calls with cache figures before the measured cached share replaces the price list's α. */
export const MEASURED_CALLS_MIN = 3;

/** A conversation's running figures (kept in its agent state, updated once per model call). */
export type StrategyFigures = {
  /** Model calls so far. */
  calls: number;
  /** Calls at which the runtime state changed (when append adds a hint). */
  updates: number;
  /** Summed tokens of the full statuses measured, and how many. */
  statusTokens: number;
  statuses: number;
  /** Summed tokens of the hints append actually sent, and how many. */
  hintTokens: number;
  hints: number;
};

export const NO_FIGURES: StrategyFigures = {
  calls: 0,
  updates: 0,
  statusTokens: 0,
  statuses: 0,
  hintTokens: 0,
  hints: 0,
};

export type StrategyDecision = {
  configured: InjectionStrategy;
  chosen: ChosenStrategy;
  reason: string;
  /** Tokens of this call's status and per hint (mean), the share of calls that change the state, the horizon, and α. */
  S: number;
  h: number;
  p: number;
  M: number;
  alpha: number;
  /** Where α came from: the conversation's measured cached share, or the model's prices. */
  alphaFrom: "measured" | "prices";
  /** w, the cache-write price over the input price, when writes cost more (absent: 1). */
  writeRatio?: number;
  /** The expected cost per call of each, in input-token equivalents. */
  appendCost: number;
  replaceCost: number;
};

export function appendCost({
  p,
  h,
  M,
  alpha,
  writeRatio = 1,
}: {
  p: number;
  h: number;
  M: number;
  alpha: number;
  writeRatio?: number;
}): number {
  return p * h * (writeRatio + (alpha * Math.max(0, M - 1)) / 2);
}

export function replaceCost({ S, writeRatio = 1 }: { S: number; writeRatio?: number }): number {
  return S * writeRatio;
}

/** α from a price (dollars per million): cached input over input, within 0..1; the default without a price. */
export function cachedPriceRatio(price: { input: number; cachedInput: number } | null | undefined): number {
  if (!price || !(price.input > 0) || !Number.isFinite(price.cachedInput)) return DEFAULT_CACHED_PRICE_RATIO;
  return Math.min(1, Math.max(0, price.cachedInput / price.input));
}

/**
 * α as this conversation's provider bills re-reading: the share of input it reported cached is billed at the price
 * ratio, the rest at full price. A provider that reports no cache re-reads everything at full price (α = 1).
 */
export function measuredAlpha(cachedShare: number, priceRatio: number): number {
  const share = Math.min(1, Math.max(0, Number.isFinite(cachedShare) ? cachedShare : 0));
  return share * priceRatio + (1 - share);
}

const round = (n: number) => Math.round(n * 100) / 100;

/** The calls' cache figures so far (all calls after the conversation's first, which can hit nothing). */
export type MeasuredCache = { calls: number; inputTokens: number; cachedInputTokens: number };

/** α for the next decision: measured once MEASURED_CALLS_MIN calls reported, else the price list's. */
export function alphaFor(
  priceRatio: number,
  measured?: MeasuredCache,
): { alpha: number; from: StrategyDecision["alphaFrom"] } {
  if (!measured || measured.calls < MEASURED_CALLS_MIN || measured.inputTokens <= 0)
    return { alpha: priceRatio, from: "prices" };
  return { alpha: measuredAlpha(measured.cachedInputTokens / measured.inputTokens, priceRatio), from: "measured" };
}

/**
 * The strategy of the next call. `statusTokens`: the size of this call's full status; `changed`: the runtime state
 * changed since the last update; `previous`: what the conversation's last call chose (for the hysteresis).
 */
export function decideStrategy({
  configured,
  figures,
  statusTokens,
  changed,
  alpha,
  alphaFrom = "prices",
  writeRatio = 1,
  previous,
}: {
  configured: InjectionStrategy;
  figures: StrategyFigures;
  statusTokens: number;
  changed: boolean;
  alpha: number;
  alphaFrom?: StrategyDecision["alphaFrom"];
  /** w of the cost model (default 1). */
  writeRatio?: number;
  previous?: ChosenStrategy;
}): StrategyDecision {
  const next = recordCall(figures, { statusTokens, changed });
  // Replace pays this call's status, known exactly: a mean would lag behind a status that grows (the task list).
  const S = round(statusTokens);
  const h = round(next.hints ? next.hintTokens / next.hints : S);
  const p = round(next.updates / next.calls);
  const M = next.calls;
  const costs = {
    appendCost: round(appendCost({ p, h, M, alpha, writeRatio })),
    replaceCost: round(replaceCost({ S, writeRatio })),
  };
  const base = {
    configured,
    S,
    h,
    p,
    M,
    alpha: round(alpha),
    alphaFrom,
    ...(writeRatio === 1 ? {} : { writeRatio: round(writeRatio) }),
    ...costs,
  };
  if (configured !== "auto") return { ...base, chosen: configured, reason: `configured: ${configured}` };
  const figuresText = `append ≈ ${costs.appendCost} tokens a call, replace ≈ ${costs.replaceCost}`;
  const current = previous ?? "append";
  if (current === "append" && costs.replaceCost <= HYSTERESIS * costs.appendCost) {
    return { ...base, chosen: "replace", reason: `${figuresText}: replace is clearly cheaper` };
  }
  if (current === "replace" && costs.appendCost <= HYSTERESIS * costs.replaceCost) {
    return { ...base, chosen: "append", reason: `${figuresText}: append is clearly cheaper` };
  }
  const cheaper = costs.appendCost <= costs.replaceCost ? "append" : "replace";
  const why = cheaper === current ? `${current} is cheaper` : `${cheaper} is cheaper, but not by enough to switch`;
  return { ...base, chosen: current, reason: `${figuresText}: ${why}` };
}

/** The figures after a call: its status measured, and the update counted when the state changed. */
export function recordCall(
  figures: StrategyFigures,
  { statusTokens, changed }: { statusTokens: number; changed: boolean },
): StrategyFigures {
  return {
    ...figures,
    calls: figures.calls + 1,
    updates: figures.updates + (changed ? 1 : 0),
    statusTokens: figures.statusTokens + statusTokens,
    statuses: figures.statuses + 1,
  };
}

/** The figures after append sent a hint of `tokens`. */
export function recordHint(figures: StrategyFigures, tokens: number): StrategyFigures {
  return { ...figures, hintTokens: figures.hintTokens + tokens, hints: figures.hints + 1 };
}

/** Stored figures read defensively (agent state is JSON). */
export function parseStrategyFigures(value: unknown): StrategyFigures | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  const out = { ...NO_FIGURES };
  for (const key of Object.keys(NO_FIGURES) as Array<keyof StrategyFigures>) {
    const n = raw[key] ?? 0; // figures stored before a field existed count it from zero
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) return undefined;
    out[key] = n;
  }
  return out;
}
