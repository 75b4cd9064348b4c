// OpenAI (OPENAI_API_KEY) or any OpenAI-compatible server (OPENAI_BASE_URL: Ollama, vLLM, llama.cpp…), spoken to
// with the Chat Completions API.
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { type Env, providerFetch, setting, withoutTrailingSlash } from "./fetch.ts";

export const OPENAI_DEFAULT_MODEL = "gpt-4o-mini";

export const openaiConfigured = (env: Env) => Boolean(setting(env, "OPENAI_API_KEY") || setting(env, "OPENAI_BASE_URL"));

/** "openai-compatible" when a base URL points elsewhere, else "openai". */
export const openaiProviderName = (env: Env) => (setting(env, "OPENAI_BASE_URL") ? "openai-compatible" : "openai");

export function openaiModel(model: string, env: Env): LanguageModelV4 {
  const baseURL = setting(env, "OPENAI_BASE_URL");
  return createOpenAI({
    // Local servers (Ollama, vLLM, llama.cpp) ignore the key but the client requires one.
    apiKey: setting(env, "OPENAI_API_KEY") ?? "not-needed",
    ...(baseURL ? { baseURL: withoutTrailingSlash(baseURL) } : {}),
    name: openaiProviderName(env),
    fetch: providerFetch,
  }).chat(model);
}
