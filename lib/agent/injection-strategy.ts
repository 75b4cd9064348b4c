// Append or replace: how a conversation keeps the agent's runtime state current (spec/injection.md, "strategy").
// append: hints stay in the history for good (every call extends the last; stale hints accumulate).
// replace: one status with the full runtime state is the last message of every call and is gone from the next one,
// so only the short suffix after it is computed again by the provider; nothing accumulates.
// auto: the cost model of the agent-status-bar practice, with this conversation's measured figures. With S tokens
// per status, R tokens of new suffix between two updates, N updates and cached input priced at α of normal input:
//   C_replace ≈ (N−1)(1−α)R     (the suffix after the removed status is paid uncached at every update)
//   C_append  ≈ αSN(N−1)/2      (every stale status is paid again, cached, at every later update)
// so append is cheaper while αSN/2 < (1−α)R. An update is a call at which the runtime state changed (what append
// would add a hint for: the time went stale, the tasks changed, the context passed the buffer), not every call:
// Hintline's append adds a hint only then, so with few changes N stays small and R spans many calls. Counting every
// call as an update made auto pick replace where append cost less (docs/benchmarks.md). Pure: the caller keeps the
// figures and says, per call, whether the state changed.

export const INJECTION_STRATEGIES = ["append", "replace", "auto"] as const;
export type InjectionStrategy = (typeof INJECTION_STRATEGIES)[number];
export type ChosenStrategy = "append" | "replace";

/** α when the model has no known price: cached input at half the price, as OpenAI's older models bill it. */
export const DEFAULT_CACHED_PRICE_RATIO = 0.5;

/** A conversation's running figures (kept in its agent state, updated once per model call). */
export type StrategyFigures = {
  /** Model calls so far. */
  calls: number;
  /** Calls at which the runtime state changed (the updates of the cost model). */
  updates: number;
  /** Summed tokens of the full statuses measured, and how many. */
  statusTokens: number;
  statuses: number;
  /** Summed tokens of new suffix between two updates (statuses left out), and how many such gaps were measured. */
  suffixTokens: number;
  suffixes: number;
  /** New suffix since the last update (the gap still open). */
  openSuffix: number;
};

export const NO_FIGURES: StrategyFigures = { calls: 0, updates: 0, statusTokens: 0, statuses: 0, suffixTokens: 0, suffixes: 0, openSuffix: 0 };

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
 * added since the previous call (none for a conversation's first call); `changed`: the runtime state changed since
 * the last update. All count before deciding, so S is known from the first call on and R from the second update.
 */
export function decideStrategy({
  configured,
  figures,
  statusTokens,
  suffixTokens,
  changed,
  alpha,
}: {
  configured: InjectionStrategy;
  figures: StrategyFigures;
  statusTokens: number;
  suffixTokens?: number;
  changed: boolean;
  alpha: number;
}): StrategyDecision {
  const next = recordCall(figures, { statusTokens, suffixTokens, changed });
  const S = round(next.statusTokens / next.statuses);
  // A gap still open counts once it is longer than the ones measured: a long quiet stretch is a long R.
  const R = round(Math.max(next.suffixes ? next.suffixTokens / next.suffixes : 0, next.openSuffix));
  const N = next.updates;
  const base = { configured, S, R, N, alpha };
  if (configured !== "auto") return { ...base, chosen: configured, reason: `configured: ${configured}` };
  if (next.suffixes === 0 && next.openSuffix === 0) return { ...base, chosen: "append", reason: "no suffix measured yet: append until R is known" };
  const left = round((alpha * S * N) / 2);
  const right = round((1 - alpha) * R);
  return appendIsCheaper(base)
    ? { ...base, chosen: "append", reason: `αSN/2 = ${left} < (1−α)R = ${right}: append is cheaper` }
    : { ...base, chosen: "replace", reason: `αSN/2 = ${left} ≥ (1−α)R = ${right}: replace is cheaper` };
}

/**
 * The figures after a call: its status measured, the suffix since the previous call (if known) added to the open gap,
 * and, when the state changed, the gap closed (from the second update on) and the update counted.
 */
export function recordCall(
  figures: StrategyFigures,
  { statusTokens, suffixTokens, changed }: { statusTokens: number; suffixTokens?: number; changed: boolean },
): StrategyFigures {
  const next = { ...figures, calls: figures.calls + 1, statusTokens: figures.statusTokens + statusTokens, statuses: figures.statuses + 1 };
  if (suffixTokens !== undefined && suffixTokens >= 0) next.openSuffix += suffixTokens;
  if (changed) {
    if (next.updates > 0) {
      next.suffixTokens += next.openSuffix;
      next.suffixes += 1;
    }
    next.openSuffix = 0;
    next.updates += 1;
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
