// OpenAI (OPENAI_API_KEY) or any OpenAI-compatible server (OPENAI_BASE_URL: Ollama, vLLM, llama.cpp…), spoken to
// with the Chat Completions API; also a connection of either kind (./connections.ts).
import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { openaiProviderName } from "./choice.ts";
import { type Env, providerFetch, setting, withoutTrailingSlash } from "./fetch.ts";

export type EndpointOptions = { baseURL?: string; apiKey?: string; name?: string };

export function openaiChatModel(model: string, { baseURL, apiKey, name }: EndpointOptions): LanguageModelV4 {
  return createOpenAI({
    // Local servers (Ollama, vLLM, llama.cpp) ignore the key but the client requires one.
    apiKey: apiKey ?? "not-needed",
    ...(baseURL ? { baseURL: withoutTrailingSlash(baseURL) } : {}),
    ...(name ? { name } : {}),
    fetch: providerFetch,
  }).chat(model);
}

export function openaiModel(model: string, env: Env): LanguageModelV4 {
  return openaiChatModel(model, {
    baseURL: setting(env, "OPENAI_BASE_URL"),
    apiKey: setting(env, "OPENAI_API_KEY"),
    name: openaiProviderName(env),
  });
}
