// Turns provider and network failures into one short sentence a person can act on (never a stack trace).
type ErrorLike = { name?: string; message?: string; statusCode?: number; cause?: unknown; lastError?: unknown; reason?: string };

function unwrap(error: unknown): ErrorLike {
  let e = (error ?? {}) as ErrorLike;
  // RetryError wraps the last attempt's error.
  if (e.lastError) e = e.lastError as ErrorLike;
  return e;
}

export function describeError(error: unknown): string {
  const e = unwrap(error);
  const cause = (e.cause ?? {}) as { code?: string; message?: string };
  const code = cause.code ?? (e as { code?: string }).code;
  if (e.name === "AbortError" || e.name === "TimeoutError") return "The model provider did not answer in time.";
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "ECONNRESET" || code === "UND_ERR_SOCKET") {
    return `Could not reach the model provider (${code}). Check that it is running and OPENAI_BASE_URL is right.`;
  }
  if (typeof e.statusCode === "number") {
    if (e.statusCode === 401 || e.statusCode === 403) return `The model provider refused the request (HTTP ${e.statusCode}): check the API key.`;
    if (e.statusCode === 429) return "The model provider is rate-limiting requests (HTTP 429). Try again in a moment.";
    return `The model provider failed (HTTP ${e.statusCode}). Try again.`;
  }
  const message = typeof e.message === "string" && e.message ? e.message : String(error);
  if (/fetch failed|terminated|socket|network/i.test(message)) {
    return "The connection to the model provider broke off mid-reply. Try again.";
  }
  return `The model provider failed: ${message.slice(0, 300)}`;
}
