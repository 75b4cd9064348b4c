// Chooses the model from the environment: OpenAI, any OpenAI-compatible server (Chat Completions API), or the
// built-in offline demo model when neither is configured.
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModel } from "ai";
import { selectEncodingFor } from "../agent/token-count.ts";
import type { ModelInfo } from "../chat-message.ts";
import { contextWindowFor } from "./context-windows.ts";
import { createDemoModel, DEMO_MODEL_ID } from "./demo-model.ts";
import { keptRequestJson } from "./kept-request-json.ts";
import { withNumericUsage } from "./numeric-usage.ts";

export type ResolvedModel = { model: LanguageModel; info: ModelInfo };

type Env = Record<string, string | undefined>;

/**
 * The provider's fetch, refusing redirects. A chat-completions endpoint that redirects is misconfigured, and to be
 * able to follow one, fetch first copies the request body (the whole conversation) on every model call.
 */
export const fetchWithoutRedirects: typeof fetch = (input, init) => fetch(input, { ...init, redirect: "error" });

/** The fetch every provider call makes: no redirects, and usage figures that are not numbers dropped. */
const providerFetch: typeof fetch = (input, init) => fetchWithoutRedirects(input, init).then(withNumericUsage);

export const DEFAULT_MAX_REPLY_TOKENS = 32_768;

/** Output maxima of OpenAI model families that are not tied to the context window (asking for more is refused). */
const OUTPUT_MAXIMA: ReadonlyArray<readonly [RegExp, number]> = [
  [/^gpt-4o/, 16_384],
  [/^gpt-4\.1/, 32_768],
  [/^(gpt-5|o[134])/, 100_000],
];

/**
 * The output tokens one model call may produce, sent to the provider: HINTLINE_MAX_REPLY_TOKENS when set, else
 * 32,768 within the model's own maximum for the OpenAI families known here. Other models get no limit from the
 * default (a local server refuses a limit beyond its context window); the reply's character ceiling holds for all.
 */
export function replyTokenCeiling(modelId: string, env: Env = process.env): number | undefined {
  const configured = Math.floor(Number(env.HINTLINE_MAX_REPLY_TOKENS?.trim() || Number.NaN));
  if (Number.isSafeInteger(configured) && configured > 0) return configured;
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  const maximum = OUTPUT_MAXIMA.find(([family]) => family.test(id))?.[1];
  return maximum === undefined ? undefined : Math.min(DEFAULT_MAX_REPLY_TOKENS, maximum);
}

/**
 * The configured model. `keepRequestJson: false` gives the Chat Completions model exactly as the AI SDK makes it
 * (the benchmark's bare route uses it).
 */
export function resolveModel(env: Env = process.env, { keepRequestJson = true } = {}): ResolvedModel {
  const apiKey = env.OPENAI_API_KEY || undefined;
  const baseURL = env.OPENAI_BASE_URL || undefined;
  const windowOverride = env.HINTLINE_CONTEXT_WINDOW ? Number(env.HINTLINE_CONTEXT_WINDOW) : undefined;
  if (!apiKey && !baseURL) {
    const delay = env.HINTLINE_DEMO_WORD_DELAY_MS ? Number(env.HINTLINE_DEMO_WORD_DELAY_MS) : undefined;
    return {
      model: createDemoModel({ wordDelayMs: delay }),
      info: { id: DEMO_MODEL_ID, provider: "demo", contextWindow: contextWindowFor(DEMO_MODEL_ID, windowOverride), isDemo: true },
    };
  }
  const id = env.HINTLINE_MODEL || "gpt-4o-mini";
  const chat = (fetch: typeof globalThis.fetch) =>
    createOpenAI({
      // Local servers (Ollama, vLLM, llama.cpp) ignore the key but the client requires one.
      apiKey: apiKey ?? "not-needed",
      ...(baseURL ? { baseURL: baseURL.replace(/\/+$/, "") } : {}),
      name: baseURL ? "openai-compatible" : "openai",
      fetch,
    }).chat(id);
  return {
    model: keepRequestJson ? keptRequestJson(chat, providerFetch) : chat(providerFetch),
    info: {
      id,
      provider: baseURL ? "openai-compatible" : "openai",
      contextWindow: contextWindowFor(id, windowOverride),
      isDemo: false,
    },
  };
}

let cached: { key: string; resolved: ResolvedModel } | undefined;

/** The process-wide model, re-resolved only when the relevant environment changes. */
export function currentModel(): ResolvedModel {
  const env = process.env;
  const key = [env.OPENAI_API_KEY, env.OPENAI_BASE_URL, env.HINTLINE_MODEL, env.HINTLINE_CONTEXT_WINDOW].join("|");
  if (!cached || cached.key !== key) {
    cached = { key, resolved: resolveModel(env) };
    void selectEncodingFor(cached.resolved.info.id);
  }
  return cached.resolved;
}
