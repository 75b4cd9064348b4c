// What a connection serves, asked of the server itself: `GET <baseUrl>/models` (OpenAI and every compatible server,
// Anthropic; Gemini's `models` list), with the context window where the server reports it — vLLM's `max_model_len`
// (also `context_length`, `context_window`, `max_context_length`, Gemini's `inputTokenLimit`), and Ollama's through
// its own API (`/api/show`) once `/api/version` says the server is Ollama. Bounded in time (one deadline for every
// request), in bytes (each answer) and in models: a hostile or broken server costs one bounded read and a failure in
// words, never the body it sent.
import { outboundFetch, ResponseTooLargeError } from "../outbound-fetch.ts";
import type { ConnectionEndpoint, ConnectionKind, ServedModel } from "./connections.ts";
import { withoutTrailingSlash } from "./fetch.ts";

export type { ServedModel };

export type ListingResult =
  | { ok: true; models: ServedModel[]; truncated: boolean; ollama: boolean }
  | { ok: false; error: string };

export const MAX_LISTED_MODELS = 500;
export const MAX_LISTING_BYTES = 4 * 1024 * 1024;
export const MAX_MODEL_NAME_CHARS = 256;
/** Models whose Ollama details are asked for (each one request), and how many at once. */
const MAX_OLLAMA_SHOWN = 32;
const OLLAMA_CONCURRENCY = 4;
/** Ollama's context when the model sets no num_ctx (its default since 0.6.4), within the model's own length. */
export const OLLAMA_DEFAULT_CONTEXT = 4_096;
const MAX_WINDOW = 100_000_000;

export const DEFAULT_BASE_URLS: Record<Exclude<ConnectionKind, "openai-compatible">, string> = {
  openai: "https://api.openai.com/v1",
  anthropic: "https://api.anthropic.com/v1",
  google: "https://generativelanguage.googleapis.com/v1beta",
};

export const endpointBaseUrl = (endpoint: Pick<ConnectionEndpoint, "kind" | "baseUrl">): string =>
  withoutTrailingSlash(
    endpoint.baseUrl ?? (endpoint.kind === "openai-compatible" ? "" : DEFAULT_BASE_URLS[endpoint.kind]),
  );

/** The headers that carry the key, as each API wants them. */
export function authHeaders(kind: ConnectionKind, apiKey: string | undefined): Record<string, string> {
  if (!apiKey) return kind === "anthropic" ? { "anthropic-version": "2023-06-01" } : {};
  if (kind === "anthropic") return { "x-api-key": apiKey, "anthropic-version": "2023-06-01" };
  if (kind === "google") return { "x-goog-api-key": apiKey };
  return { authorization: `Bearer ${apiKey}` };
}

const CONTROL = /[\u0000-\u001f\u007f]/;
const positiveWindow = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isSafeInteger(value) && value > 0 && value <= MAX_WINDOW ? value : undefined;

/** One entry of a model list as a served model, or undefined when it names none this server would send back. */
export function servedModelOf(entry: unknown, kind: ConnectionKind): ServedModel | undefined {
  if (!entry || typeof entry !== "object") return undefined;
  const e = entry as Record<string, unknown>;
  const raw = kind === "google" ? e.name : e.id;
  if (typeof raw !== "string") return undefined;
  const name = kind === "google" ? raw.replace(/^models\//, "") : raw;
  if (!name || name.length > MAX_MODEL_NAME_CHARS || CONTROL.test(name)) return undefined;
  const window =
    positiveWindow(e.max_model_len) ??
    positiveWindow(e.context_length) ??
    positiveWindow(e.context_window) ??
    positiveWindow(e.max_context_length) ??
    positiveWindow(e.inputTokenLimit);
  return window ? { name, contextWindow: window, windowSource: "server" } : { name };
}

/** The models of a list answer (`data` for OpenAI's shape and Anthropic's, `models` for Gemini's), first ones kept. */
export function parseModelList(
  body: unknown,
  kind: ConnectionKind,
): { models: ServedModel[]; truncated: boolean } | undefined {
  if (!body || typeof body !== "object") return undefined;
  const list = (body as Record<string, unknown>)[kind === "google" ? "models" : "data"];
  if (!Array.isArray(list)) return undefined;
  const models: ServedModel[] = [];
  const seen = new Set<string>();
  for (const entry of list) {
    const model = servedModelOf(entry, kind);
    if (!model || seen.has(model.name)) continue;
    if (models.length === MAX_LISTED_MODELS) return { models, truncated: true };
    seen.add(model.name);
    models.push(model);
  }
  return { models, truncated: false };
}

/** An Ollama model's window from its `/api/show`: its num_ctx parameter, else Ollama's default within its own length. */
export function ollamaWindow(show: unknown): Pick<ServedModel, "contextWindow" | "windowSource"> {
  const s = (show && typeof show === "object" ? show : {}) as Record<string, unknown>;
  const numCtx = typeof s.parameters === "string" ? /(?:^|\n)\s*num_ctx\s+(\d+)/.exec(s.parameters)?.[1] : undefined;
  const set = positiveWindow(Number(numCtx));
  if (set) return { contextWindow: set, windowSource: "server" };
  const info = (s.model_info && typeof s.model_info === "object" ? s.model_info : {}) as Record<string, unknown>;
  const trained = Object.entries(info).find(([key]) => key.endsWith(".context_length"))?.[1];
  return {
    contextWindow: Math.min(positiveWindow(trained) ?? OLLAMA_DEFAULT_CONTEXT, OLLAMA_DEFAULT_CONTEXT),
    windowSource: "ollama-default",
  };
}

/** What went wrong, in words, without anything the server wrote. */
export function describeListingFailure(error: unknown, url: string, timeoutMs: number): string {
  const where = `${url}`;
  if (error instanceof ResponseTooLargeError)
    return `${where} answered with more than ${(MAX_LISTING_BYTES / 1024 / 1024).toFixed(0)} MiB; no model list was read`;
  const name = (error as { name?: string } | null)?.name;
  if (name === "TimeoutError" || name === "AbortError") return `${where} did not answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } } | null)?.cause;
  if (cause?.code === "ECONNREFUSED")
    return `nothing accepts connections at ${where} (connection refused): is the server running?`;
  if (cause?.code === "ENOTFOUND" || cause?.code === "EAI_AGAIN") return `the host of ${where} was not found`;
  if (cause?.code === "ECONNRESET") return `${where} closed the connection without answering`;
  if (cause?.message?.includes("redirect"))
    return `${where} answered with a redirect, which is not followed: give the final URL`;
  return `${where} could not be reached${cause?.code ? ` (${cause.code})` : ""}`;
}

const STATUS_HINT: Record<number, string> = {
  401: "the key was refused",
  403: "the key may not list models",
  404: "there is no model list at this URL (an OpenAI-compatible server's URL usually ends in /v1)",
};

type Fetch = typeof globalThis.fetch;

async function readJson(fetcher: Fetch, url: string, init: RequestInit): Promise<{ status: number; body?: unknown }> {
  const response = await fetcher(url, init);
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return { status: response.status };
  }
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) };
  } catch {
    return { status: response.status };
  }
}

/** Ollama's details of the first models, a few at once, within the same deadline; a failure leaves a model as it was. */
async function withOllamaWindows(fetcher: Fetch, root: string, models: ServedModel[], signal: AbortSignal) {
  const asked = models.slice(0, MAX_OLLAMA_SHOWN);
  let next = 0;
  const worker = async () => {
    while (next < asked.length && !signal.aborted) {
      const model = asked[next++]!;
      const show = await readJson(fetcher, `${root}/api/show`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ model: model.name }),
        signal,
      }).catch(() => undefined);
      if (show?.body && model.windowSource !== "server") Object.assign(model, ollamaWindow(show.body));
    }
  };
  await Promise.all(Array.from({ length: OLLAMA_CONCURRENCY }, worker));
}

/** Whether the server at `root` (the base URL without /v1) is Ollama: its `/api/version` answers `{ version }`. */
async function isOllama(fetcher: Fetch, root: string, signal: AbortSignal): Promise<boolean> {
  const answer = await readJson(fetcher, `${root}/api/version`, { signal }).catch(() => undefined);
  const version = (answer?.body as { version?: unknown } | undefined)?.version;
  return typeof version === "string" && version.length < 100;
}

/** The models `endpoint` serves, or what failed in words; connections may be on loopback (an admin set them). */
export async function listServedModels(
  endpoint: Pick<ConnectionEndpoint, "kind" | "baseUrl" | "apiKey">,
  { timeoutMs }: { timeoutMs: number },
): Promise<ListingResult> {
  const base = endpointBaseUrl(endpoint);
  const url = `${base}/models`;
  const signal = AbortSignal.timeout(timeoutMs);
  const fetcher = outboundFetch({ allowPrivate: true, maxResponseBytes: MAX_LISTING_BYTES });
  try {
    const answer = await readJson(fetcher, url, { headers: authHeaders(endpoint.kind, endpoint.apiKey), signal });
    if (answer.status < 200 || answer.status >= 300) {
      const hint = STATUS_HINT[answer.status];
      return { ok: false, error: `${url} answered HTTP ${answer.status}${hint ? `: ${hint}` : ""}` };
    }
    const parsed = parseModelList(answer.body, endpoint.kind);
    if (!parsed) return { ok: false, error: `${url} answered, but not with a model list` };
    const root = base.replace(/\/v1$/, "");
    const ollama = endpoint.kind === "openai-compatible" && root !== base && (await isOllama(fetcher, root, signal));
    if (ollama) await withOllamaWindows(fetcher, root, parsed.models, signal);
    return { ok: true, ...parsed, ollama };
  } catch (error) {
    return { ok: false, error: describeListingFailure(error, url, timeoutMs) };
  }
}
