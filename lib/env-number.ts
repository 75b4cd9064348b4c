// Numeric settings from the environment: a missing, blank, negative or non-numeric value means the default, so a
// typo can never turn into NaN retries or a zero timeout.
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  return Number.isFinite(value) && value >= 0 ? value : fallback;
}
