// Turns provider and network failures into one short sentence a person can act on (never a stack trace): which
// provider refused and why in its own words (a wrong key, an unknown model, overloaded, rate-limited, a conversation
// too long for the model), and what to do. The provider's words are stored and shown, so they are scrubbed of secrets
// (an error body may echo the key) as the log scrubs them.
import { scrub } from "../secrets.ts";
import { DISK_FULL_REPLY_MESSAGE, isDiskFull } from "./disk-full.ts";
import { operatorNote, withoutNoteMarks } from "../operator-words.ts";

type ErrorLike = {
  name?: string;
  message?: string;
  statusCode?: number;
  cause?: unknown;
  lastError?: unknown;
  code?: string;
  url?: string;
  data?: unknown;
  responseBody?: string;
};

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ECONNRESET",
  "UND_ERR_SOCKET",
  "ETIMEDOUT",
]);
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

type Provider = { name: string; key: string; base: string };
const ANTHROPIC: Provider = { name: "Anthropic", key: "ANTHROPIC_API_KEY", base: "ANTHROPIC_BASE_URL" };
const GEMINI: Provider = { name: "Gemini", key: "GOOGLE_GENERATIVE_AI_API_KEY", base: "GOOGLE_BASE_URL" };
const OPENAI: Provider = { name: "The model provider", key: "OPENAI_API_KEY", base: "OPENAI_BASE_URL" };

/** Which API the failed request went to, from its address (the fakes' and proxies' too). */
function providerOf(errors: ErrorLike[]): Provider {
  const url = errors.map((e) => e.url).find((u) => typeof u === "string") ?? "";
  if (/\/messages(\?|$)/.test(url)) return ANTHROPIC;
  if (/:(stream)?generateContent/i.test(url)) return GEMINI;
  return OPENAI;
}

/** The provider's own explanation: `error.message` in OpenAI's, Anthropic's and Gemini's error bodies alike. */
function providerMessage(errors: ErrorLike[]): string | undefined {
  for (const e of errors) {
    let data = e.data;
    if (data === undefined && typeof e.responseBody === "string") {
      try {
        data = JSON.parse(e.responseBody);
      } catch {
        data = undefined;
      }
    }
    const message = (data as { error?: { message?: unknown } } | undefined)?.error?.message;
    if (typeof message === "string" && message.trim()) {
      const oneLine = withoutNoteMarks(scrub(message.replace(/\s+/g, " ").trim()));
      return oneLine.length > 160 ? `${oneLine.slice(0, 157)}…` : oneLine;
    }
  }
  return undefined;
}

/** What a person who does not run the server can do when the provider cannot be reached. */
const LATER = " Try again later; if it goes on, tell whoever runs this Hintline server.";

const TOO_LONG =
  /prompt is too long|context.length|maximum context|input token count.*exceeds|too many tokens|context window/i;
const BAD_KEY = /api key not valid|invalid.{0,10}api.?key|incorrect api key|x-api-key/i;
const UNKNOWN_MODEL = /model.*(not found|does not exist|not supported)|^model: |model_not_found|unknown model/i;

export function describeError(error: unknown): string {
  if (isDiskFull(error)) return DISK_FULL_REPLY_MESSAGE;
  const errors = chain(error);
  const top = errors[0] ?? {};
  const code = errors.map((e) => e.code).find((c) => typeof c === "string" && NETWORK_CODES.has(c));
  const status = errors.map((e) => e.statusCode).find((s) => typeof s === "number");
  const messages = errors.map((e) => (typeof e.message === "string" ? e.message : "")).join(" | ");
  const provider = providerOf(errors);
  if (top.name === "AbortError" || top.name === "TimeoutError") return "The model provider did not answer in time.";
  if (code && UNREACHABLE.has(code)) {
    return `Could not reach the model provider (${code}).${operatorNote(` Check that it is running and ${provider.base} is right.`, LATER)}`;
  }
  const broke = code !== undefined || /terminated|socket|other side closed|network/i.test(messages);
  if (broke && (status === undefined || (status >= 200 && status < 300))) {
    return "The connection to the model provider broke off mid-reply. Try again.";
  }
  if (status !== undefined && status >= 400) {
    const said = providerMessage(errors);
    const http = said ? `HTTP ${status}: ${said}` : `HTTP ${status}`;
    const who = provider.name;
    if (status === 401 || status === 403 || (status === 400 && said && BAD_KEY.test(said))) {
      return `${who} refused the request (${http})${operatorNote(`: check the API key (${provider.key}).`, `: it does not accept this server's key. Ask whoever runs this Hintline server to check it.`)}`;
    }
    if (said && TOO_LONG.test(said)) {
      return `The conversation is too long for this model's context window (${http}). Compress it, or choose a model with a larger window.`;
    }
    if (status === 404 || (said && UNKNOWN_MODEL.test(said) && status < 500)) {
      return `${who} does not know this model (${http}). Choose another model${operatorNote(", or check HINTLINE_MODEL.", ".")}`;
    }
    if (status === 429)
      return `${who === OPENAI.name ? "The model provider" : who} is rate-limiting requests (${http}). Try again in a moment.`;
    if (status === 529 || (status === 503 && said && /overloaded/i.test(said)))
      return `${who} is overloaded (${http}). Try again in a moment.`;
    if (provider === OPENAI) return `The model provider failed (HTTP ${status}). Try again.`;
    return `${who} failed (${http}). Try again.`;
  }
  if (/unexpected redirect/i.test(messages)) {
    return `The model provider's address redirects elsewhere, which Hintline does not follow.${operatorNote(` Set ${provider.base} to the final address.`, LATER)}`;
  }
  if (/fetch failed/i.test(messages))
    return `Could not reach the model provider.${operatorNote(` Check that it is running and ${provider.base} is right.`, LATER)}`;
  const message = typeof top.message === "string" && top.message ? top.message : String(error);
  return `The model provider failed: ${withoutNoteMarks(scrub(message)).slice(0, 300)}`;
}
