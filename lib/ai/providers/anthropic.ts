// Anthropic's Messages API (ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL for a proxy or a fake, ending in /v1).
import { createAnthropic } from "@ai-sdk/anthropic";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { type Env, providerFetch, setting, withoutTrailingSlash } from "./fetch.ts";

export function anthropicModel(model: string, env: Env): LanguageModelV4 {
  const baseURL = setting(env, "ANTHROPIC_BASE_URL");
  return createAnthropic({
    apiKey: setting(env, "ANTHROPIC_API_KEY") ?? "not-needed",
    ...(baseURL ? { baseURL: withoutTrailingSlash(baseURL) } : {}),
    fetch: providerFetch,
  })(model);
}
