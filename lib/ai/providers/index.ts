// Chooses a model by its `provider/model` id: `openai/…` (also any OpenAI-compatible server by OPENAI_BASE_URL),
// `anthropic/…`, `google/…`; a bare id means what it always meant (OpenAI or the compatible server). With no provider
// configured, the built-in offline demo model is the one choice. Several providers may be configured at once.
// The choosing is ./choice.ts's (no SDK loaded); this module makes the models with each provider's AI SDK package.
import type { LanguageModel } from "ai";
import type { ModelInfo } from "../../chat-message.ts";
import { createDemoModel } from "../demo-model.ts";
import { anthropicEndpointModel, anthropicModel } from "./anthropic.ts";
import { type Choice, choiceFor, chooseModel, defaultModelId } from "./choice.ts";
import { type Env, setting } from "./fetch.ts";
import type { ConnectionEndpoint } from "./connections.ts";
import { googleEndpointModel, googleModel } from "./google.ts";
import { openaiChatModel, openaiModel } from "./openai.ts";
import { endpointBaseUrl } from "./served-models.ts";

export * from "./choice.ts";
export { fetchWithoutRedirects } from "./fetch.ts";

export type ResolvedModel = { model: LanguageModel; info: ModelInfo };

/** A connection's model, at its endpoint with its key (an OpenAI-compatible server's name travels in the body as it is). */
function connectionModel(endpoint: ConnectionEndpoint, model: string): LanguageModel {
  const options = { baseURL: endpointBaseUrl(endpoint) || undefined, apiKey: endpoint.apiKey, name: endpoint.kind };
  if (endpoint.kind === "anthropic") return anthropicEndpointModel(model, options);
  if (endpoint.kind === "google") return googleEndpointModel(model, options);
  return openaiChatModel(model, options);
}

function modelOf(choice: Choice, env: Env): LanguageModel {
  switch (choice.provider) {
    case "demo": {
      const delay = setting(env, "HINTLINE_DEMO_WORD_DELAY_MS");
      return createDemoModel({ wordDelayMs: delay ? Number(delay) : undefined });
    }
    case "openai":
      return openaiModel(choice.model, env);
    case "anthropic":
      return anthropicModel(choice.model, env);
    case "google":
      return googleModel(choice.model, env);
    case "connection":
      return connectionModel(choice.endpoint!, choice.model);
  }
}

/**
 * The model `id` names (default: the default model), as its provider's AI SDK package makes it: one request path for
 * every provider. Throws a ModelChoiceError for an id that cannot be used as configured.
 */
export function resolveModel(env: Env = process.env, { id }: { id?: string } = {}): ResolvedModel {
  const choice = chooseModel(id ?? defaultModelId(env), env);
  return { model: modelOf(choice, env), info: choice.info };
}

/** Each choice's model, made once (a choice is the same object until the environment changes: ./choice.ts). */
const models = new WeakMap<Choice, ResolvedModel>();

/** The model `id` names (undefined or null: the default), resolved once per process and environment. */
export function modelFor(id?: string | null): ResolvedModel {
  const choice = choiceFor(id);
  let resolved = models.get(choice);
  if (!resolved) {
    resolved = { model: modelOf(choice, process.env), info: choice.info };
    models.set(choice, resolved);
  }
  return resolved;
}

/** The default model. */
export const currentModel = (): ResolvedModel => modelFor();
