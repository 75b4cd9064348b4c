// When a failed model call is worth trying again, and after how long. The reply loop retries only calls that failed
// before streaming anything (so nothing is duplicated) and tells the person about every wait.

type ErrorLike = { isRetryable?: unknown; statusCode?: unknown; responseHeaders?: unknown; cause?: unknown };

const MAX_DELAY_MS = 20_000;

function asErrorLike(error: unknown): ErrorLike | undefined {
  return error && typeof error === "object" ? (error as ErrorLike) : undefined;
}

/** Rate limits, overload, 5xx and refused connections; never 4xx request errors, aborts or timeouts. */
export function isRetryableError(error: unknown): boolean {
  const e = asErrorLike(error);
  if (!e) return false;
  if (typeof e.isRetryable === "boolean") return e.isRetryable;
  return typeof e.statusCode === "number" && (e.statusCode === 429 || e.statusCode >= 500);
}

function header(error: ErrorLike | undefined, name: string): string | undefined {
  const headers = error?.responseHeaders;
  if (!headers || typeof headers !== "object") return undefined;
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

/** The provider's `retry-after-ms` / `retry-after` when it sent one, else exponential backoff; capped. */
export function retryDelayMs(error: unknown, attempt: number, baseMs: number): number {
  const e = asErrorLike(error);
  const ms = Number(header(e, "retry-after-ms"));
  if (Number.isFinite(ms) && ms >= 0 && header(e, "retry-after-ms")?.trim()) return Math.min(ms, MAX_DELAY_MS);
  const after = header(e, "retry-after")?.trim();
  if (after) {
    const seconds = Number(after);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_DELAY_MS);
    const date = Date.parse(after);
    if (!Number.isNaN(date)) return Math.min(Math.max(0, date - Date.now()), MAX_DELAY_MS);
  }
  return Math.min(baseMs * 2 ** attempt, MAX_DELAY_MS);
}

/** Resolves after `ms`, or early when the signal aborts (the person pressed Stop during the wait). */
export function waitUnlessAborted(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
