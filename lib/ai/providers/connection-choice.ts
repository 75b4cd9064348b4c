// What `<connection>/<model>` means: the connection's endpoint and key, and the model's window — the one its server
// reported (vLLM's max_model_len, Ollama's num_ctx), else HINTLINE_CONTEXT_WINDOW, else Ollama's default, else the
// window table; an OpenAI-compatible server's unknown model gets the conservative fallback, as OPENAI_BASE_URL's does.
import type { ModelInfo } from "../../chat-message.ts";
import { FALLBACK_CONTEXT_WINDOW, knownContextWindow } from "../context-windows.ts";
import { type ConnectionEndpoint, modelListing } from "./connections.ts";
import { MAX_MODEL_NAME_CHARS } from "./served-models.ts";
import { ModelChoiceError, URL_MODEL_NAME } from "./model-choice-error.ts";
import { operatorNote } from "../../operator-words.ts";

const CONTROL = /[\u0000-\u001f\u007f]/;

export function connectionModelWindow(
  endpoint: ConnectionEndpoint,
  model: string,
  override?: number,
): number | undefined {
  const served = modelListing(endpoint.id)?.models.find((m) => m.name === model);
  if (served?.contextWindow && served.windowSource === "server") return served.contextWindow;
  if (override) return Math.floor(override);
  if (served?.contextWindow) return served.contextWindow;
  return knownContextWindow(model) ?? (endpoint.kind === "openai-compatible" ? FALLBACK_CONTEXT_WINDOW : undefined);
}

/** The model `model` of `endpoint` as ModelInfo, or a ModelChoiceError saying why it cannot be used. */
export function chooseConnectionModel(endpoint: ConnectionEndpoint, model: string, override?: number): ModelInfo {
  const id = `${endpoint.id}/${model}`;
  if (!endpoint.enabled)
    throw new ModelChoiceError(
      `${id} cannot be used: connection ${endpoint.id} is disabled (enable it in Settings → Models).`,
    );
  if (endpoint.keyUnreadable)
    throw new ModelChoiceError(
      `${id} cannot be used: the key of connection ${endpoint.id} cannot be decrypted with this server's secret${operatorNote(" (HINTLINE_SECRET changed?); set it again.", `. Choose another model, or ask whoever runs this Hintline server to set the key again.`)}`,
    );
  if (!model.trim() || model.length > MAX_MODEL_NAME_CHARS || CONTROL.test(model))
    throw new ModelChoiceError(`"${id}" names no usable model: write ${endpoint.id}/<model>.`);
  if (endpoint.kind === "google" && !URL_MODEL_NAME.test(model))
    throw new ModelChoiceError(
      `"${id}" cannot be a Gemini model: its name goes into the request's URL, so it may hold only letters, digits and . _ : - (starting with a letter or digit).`,
    );
  const window = connectionModelWindow(endpoint, model, override);
  if (window === undefined)
    throw new ModelChoiceError(
      `Hintline does not know the context window of ${id}${operatorNote(": set HINTLINE_CONTEXT_WINDOW to its size in tokens.", `, so it cannot be used yet. Choose another model, or ask whoever runs this Hintline server to set its window.`)}`,
    );
  return { id, provider: endpoint.kind, connection: endpoint.id, contextWindow: window, isDemo: false };
}
