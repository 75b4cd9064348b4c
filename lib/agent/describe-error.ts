// Turns provider and network failures into one short sentence a person can act on (never a stack trace).
import { DISK_FULL_REPLY_MESSAGE, isDiskFull } from "./disk-full.ts";

type ErrorLike = { name?: string; message?: string; statusCode?: number; cause?: unknown; lastError?: unknown; code?: string };

const NETWORK_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ECONNRESET", "UND_ERR_SOCKET", "ETIMEDOUT"]);
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH"]);

/** The error and its causes, outermost first (a RetryError is unwrapped to its last attempt). */
function chain(error: unknown): ErrorLike[] {
  const out: ErrorLike[] = [];
  let e = error as ErrorLike | undefined;
  if (e?.lastError) e = e.lastError as ErrorLike;
  while (e && typeof e === "object" && out.length < 8) {
    out.push(e);
    e = e.cause as ErrorLike | undefined;
  }
  return out;
}

export function describeError(error: unknown): string {
  if (isDiskFull(error)) return DISK_FULL_REPLY_MESSAGE;
  const errors = chain(error);
  const top = errors[0] ?? {};
  const code = errors.map((e) => e.code).find((c) => typeof c === "string" && NETWORK_CODES.has(c));
  const status = errors.map((e) => e.statusCode).find((s) => typeof s === "number");
  const messages = errors.map((e) => (typeof e.message === "string" ? e.message : "")).join(" | ");
  if (top.name === "AbortError" || top.name === "TimeoutError") return "The model provider did not answer in time.";
  if (code && UNREACHABLE.has(code)) {
    return `Could not reach the model provider (${code}). Check that it is running and OPENAI_BASE_URL is right.`;
  }
  const broke = code !== undefined || /terminated|socket|other side closed|network/i.test(messages);
  if (broke && (status === undefined || (status >= 200 && status < 300))) {
    return "The connection to the model provider broke off mid-reply. Try again.";
  }
  if (status !== undefined && status >= 400) {
    if (status === 401 || status === 403) return `The model provider refused the request (HTTP ${status}): check the API key.`;
    if (status === 429) return "The model provider is rate-limiting requests (HTTP 429). Try again in a moment.";
    return `The model provider failed (HTTP ${status}). Try again.`;
  }
  if (/unexpected redirect/i.test(messages)) {
    return "The model provider's address redirects elsewhere, which Hintline does not follow. Set OPENAI_BASE_URL to the final address.";
  }
  if (/fetch failed/i.test(messages)) return "Could not reach the model provider. Check that it is running and OPENAI_BASE_URL is right.";
  const message = typeof top.message === "string" && top.message ? top.message : String(error);
  return `The model provider failed: ${message.slice(0, 300)}`;
}
