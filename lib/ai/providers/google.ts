// Google's Gemini API (GOOGLE_GENERATIVE_AI_API_KEY; GOOGLE_BASE_URL for a proxy or a fake, ending in /v1beta), or a
// connection of that kind.
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import type { LanguageModelV4 } from "@ai-sdk/provider";
import { type Env, providerFetch, setting, withoutTrailingSlash } from "./fetch.ts";
import type { EndpointOptions } from "./openai.ts";

/**
 * The SDK puts the model name into the path as it is (`models/{name}:streamGenerateContent`): chooseModel has held it
 * to URL_MODEL_NAME, and it is sent encoded, so not even its `:` can name another method.
 */
export function googleEndpointModel(model: string, { baseURL, apiKey }: EndpointOptions): LanguageModelV4 {
  return createGoogleGenerativeAI({
    apiKey: apiKey ?? "not-needed",
    ...(baseURL ? { baseURL: withoutTrailingSlash(baseURL) } : {}),
    fetch: providerFetch,
  })(encodeURIComponent(model));
}

export const googleModel = (model: string, env: Env): LanguageModelV4 =>
  googleEndpointModel(model, {
    baseURL: setting(env, "GOOGLE_BASE_URL"),
    apiKey: setting(env, "GOOGLE_GENERATIVE_AI_API_KEY"),
  });
