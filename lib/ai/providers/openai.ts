// OpenAI (OPENAI_API_KEY) or any OpenAI-compatible server (OPENAI_BASE_URL: Ollama, vLLM, llama.cpp…), spoken to
// with the Chat Completions API.
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { openaiProviderName } from "./choice.ts";
import { type Env, providerFetch, setting, withoutTrailingSlash } from "./fetch.ts";

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
