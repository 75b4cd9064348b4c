// Numeric settings from the environment: a missing, blank, negative or non-numeric value means the default, so a
// typo can never turn into NaN retries or a zero timeout.
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}

export const DEFAULT_MAX_REPLY_CHARS = 400_000;
export const DEFAULT_MAX_STEPS = 20;
export const MAX_STEPS_LIMIT = 100;

/** The model calls one reply may make (HINTLINE_MAX_STEPS, 1 to 100; an agent definition may set its own). */
export function maxReplySteps(): number {
  return Math.min(
    MAX_STEPS_LIMIT,
    Math.max(1, Math.floor(envNumber("HINTLINE_MAX_STEPS", DEFAULT_MAX_STEPS)) || DEFAULT_MAX_STEPS),
  );
}

/** The characters one reply may stream over all its steps (and an imported assistant message may hold). */
export function maxReplyChars(): number {
  return Math.floor(envNumber("HINTLINE_MAX_REPLY_CHARS", DEFAULT_MAX_REPLY_CHARS)) || DEFAULT_MAX_REPLY_CHARS;
}
