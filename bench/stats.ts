// Small statistics and formatting helpers for the HTTP benchmark (figures only; nothing is asserted).

/** The p-th percentile (0–100) by linear interpolation between the closest ranks. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = (p / 100) * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

export const median = (values: readonly number[]): number => percentile(values, 50);

export type Summary = { n: number; p50: number; p95: number; min: number; max: number };

/** p50, p95, min and max of the finite values (a failed request's NaN is left out; errors are counted apart). */
export function summarize(all: readonly number[]): Summary {
  const values = all.filter(Number.isFinite);
  return {
    n: values.length,
    p50: percentile(values, 50),
    p95: percentile(values, 95),
    min: Math.min(...values),
    max: Math.max(...values),
  };
}

/** A number with thousands separators and the given decimals ("–" when not a number). */
export function num(value: number, decimals = 1): string {
  if (!Number.isFinite(value)) return "–";
  return value.toLocaleString("en-US", { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
}

export const ms = (value: number): string => `${num(value, 1)} ms`;

export const mib = (kib: number): string => `${num(kib / 1024, 0)} MiB`;

/** "p50 / p95" of a sample in milliseconds. */
export const msPair = (s: Summary): string => `${num(s.p50, 1)} / ${num(s.p95, 1)} ms`;

export type Goal = { kind: "max" | "min"; value: number; unit?: string };

export function goalText(goal: Goal): string {
  return `${goal.kind === "max" ? "≤" : "≥"} ${goal.value}${goal.unit ?? "×"}`;
}

export function meets(value: number, goal: Goal): boolean {
  return goal.kind === "max" ? value <= goal.value : value >= goal.value;
}

/** A markdown table with the first column left-aligned and the others right-aligned (except a ✓/✗ column). */
export function markdownTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const align = header.map((h, i) => (i === 0 ? ":---" : h === "Met" ? ":-:" : "---:"));
  const line = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(align), ...rows.map(line)].join("\n");
}
