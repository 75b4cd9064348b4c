// Anthropic's Messages API (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL for a proxy or a fake, ending in /v1), or a
// connection of that kind.
import { createAnthropic } from "@ai-sdk/anthropic";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { type Env, providerFetch, setting, withoutTrailingSlash } from "./fetch.ts";
import type { EndpointOptions } from "./openai.ts";

export function anthropicEndpointModel(model: string, { baseURL, apiKey }: EndpointOptions): LanguageModelV4 {
  return createAnthropic({
    apiKey: apiKey ?? "not-needed",
    ...(baseURL ? { baseURL: withoutTrailingSlash(baseURL) } : {}),
    fetch: providerFetch,
  })(model);
}

export const anthropicModel = (model: string, env: Env): LanguageModelV4 =>
  anthropicEndpointModel(model, {
    baseURL: setting(env, "ANTHROPIC_BASE_URL"),
    apiKey: setting(env, "ANTHROPIC_API_KEY"),
  });
