// Append or replace: how a conversation keeps the agent's runtime state current (spec/injection.md, "strategy").
// append: hints stay in the history for good (every call extends the last; stale hints accumulate).
// replace: one status with the full runtime state is the last message of every call and is gone from the next one,
// so only the short suffix after it is computed again by the provider; nothing accumulates.
// auto: the cost model of the agent-status-bar practice, with this conversation's measured figures. With S tokens
// per status, R tokens of new suffix between two updates, N updates and cached input priced at α of normal input:
//   C_replace ≈ (N−1)(1−α)R     (the suffix after the removed status is paid uncached at every update)
//   C_append  ≈ αSN(N−1)/2      (every stale status is paid again, cached, at every later update)
// so append is cheaper while αSN/2 < (1−α)R. Pure: the figures are kept by the caller, one update per call.

export const INJECTION_STRATEGIES = ["append", "replace", "auto"] as const;
export type InjectionStrategy = (typeof INJECTION_STRATEGIES)[number];
export type ChosenStrategy = "append" | "replace";

/** α when the model has no known price: cached input at half the price, as OpenAI's older models bill it. */
export const DEFAULT_CACHED_PRICE_RATIO = 0.5;

/** A conversation's running figures (kept in its agent state, updated once per model call). */
export type StrategyFigures = {
  /** Model calls (status updates) so far. */
  calls: number;
  /** Summed tokens of the full statuses measured, and how many. */
  statusTokens: number;
  statuses: number;
  /** Summed tokens of new suffix between two calls (statuses left out), and how many gaps were measured. */
  suffixTokens: number;
  suffixes: number;
};

export const NO_FIGURES: StrategyFigures = { calls: 0, statusTokens: 0, statuses: 0, suffixTokens: 0, suffixes: 0 };

export type StrategyDecision = {
  configured: InjectionStrategy;
  chosen: ChosenStrategy;
  reason: string;
  /** Tokens per status (mean), tokens of new suffix per update (mean), updates including this one, and α. */
  S: number;
  R: number;
  N: number;
  alpha: number;
};

export function replaceCost({ N, R, alpha }: { N: number; R: number; alpha: number }): number {
  return Math.max(0, N - 1) * (1 - alpha) * R;
}

export function appendCost({ N, S, alpha }: { N: number; S: number; alpha: number }): number {
  return (alpha * S * N * Math.max(0, N - 1)) / 2;
}

/** The practice's rule: append while αSN/2 < (1−α)R. */
export function appendIsCheaper({ S, R, N, alpha }: { S: number; R: number; N: number; alpha: number }): boolean {
  return (alpha * S * N) / 2 < (1 - alpha) * R;
}

/** α from a price (dollars per million): cached input over input, within 0..1; the default without a price. */
export function cachedPriceRatio(price: { input: number; cachedInput: number } | null | undefined): number {
  if (!price || !(price.input > 0) || !Number.isFinite(price.cachedInput)) return DEFAULT_CACHED_PRICE_RATIO;
  return Math.min(1, Math.max(0, price.cachedInput / price.input));
}

const round = (n: number) => Math.round(n * 10) / 10;

/**
 * The strategy of the next call. `statusTokens`: the size of this call's full status; `suffixTokens`: what was
 * added since the previous call (none for a conversation's first call). Both are measured before deciding and count
 * in the means, so S is known from the first call on and R from the second.
 */
export function decideStrategy({
  configured,
  figures,
  statusTokens,
  suffixTokens,
  alpha,
}: {
  configured: InjectionStrategy;
  figures: StrategyFigures;
  statusTokens: number;
  suffixTokens?: number;
  alpha: number;
}): StrategyDecision {
  const next = recordCall(figures, { statusTokens, suffixTokens });
  const S = round(next.statusTokens / next.statuses);
  const R = round(next.suffixes ? next.suffixTokens / next.suffixes : 0);
  const N = next.calls;
  const base = { configured, S, R, N, alpha };
  if (configured !== "auto") return { ...base, chosen: configured, reason: `configured: ${configured}` };
  if (next.suffixes === 0) return { ...base, chosen: "append", reason: "no suffix measured yet: append until R is known" };
  const left = round((alpha * S * N) / 2);
  const right = round((1 - alpha) * R);
  return appendIsCheaper(base)
    ? { ...base, chosen: "append", reason: `αSN/2 = ${left} < (1−α)R = ${right}: append is cheaper` }
    : { ...base, chosen: "replace", reason: `αSN/2 = ${left} ≥ (1−α)R = ${right}: replace is cheaper` };
}

/** The figures after a call: its status measured, the suffix since the previous call (if known) added. */
export function recordCall(figures: StrategyFigures, { statusTokens, suffixTokens }: { statusTokens: number; suffixTokens?: number }): StrategyFigures {
  const next = { ...figures, calls: figures.calls + 1, statusTokens: figures.statusTokens + statusTokens, statuses: figures.statuses + 1 };
  if (suffixTokens !== undefined && suffixTokens >= 0) {
    next.suffixTokens += suffixTokens;
    next.suffixes += 1;
  }
  return next;
}

/** Stored figures read defensively (agent state is JSON). */
export function parseStrategyFigures(value: unknown): StrategyFigures | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  const out = { ...NO_FIGURES };
  for (const key of Object.keys(NO_FIGURES) as Array<keyof StrategyFigures>) {
    const n = raw[key];
    if (typeof n !== "number" || !Number.isSafeInteger(n) || n < 0) return undefined;
    out[key] = n;
  }
  return out;
}
