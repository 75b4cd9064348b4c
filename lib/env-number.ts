// Numeric settings from the environment: a missing, blank, negative or non-numeric value means the default, so a
// typo can never turn into NaN retries or a zero timeout.
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

export const DEFAULT_MAX_REPLY_CHARS = 400_000;

/** The characters one reply may stream over all its steps (and an imported assistant message may hold). */
export function maxReplyChars(): number {
  return Math.floor(envNumber("HINTLINE_MAX_REPLY_CHARS", DEFAULT_MAX_REPLY_CHARS)) || DEFAULT_MAX_REPLY_CHARS;
}
