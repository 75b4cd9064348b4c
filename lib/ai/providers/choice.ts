// Which model an id names under the environment, and what it is (its window, its provider), without loading any
// provider's SDK: the pages, GET /api/model, /api/models and /api/health need only this. The models themselves, made
// by the SDKs, come from ./index.ts.
import { selectEncodingFor } from "../../agent/token-count.ts";
import type { ModelInfo } from "../../chat-message.ts";
import { contextWindowFor, knownContextWindow } from "../context-windows.ts";
import { DEMO_MODEL_ID } from "../demo-model-id.ts";
import { chooseConnectionModel } from "./connection-choice.ts";
import {
  type ConnectionEndpoint,
  connectionEndpoint,
  connectionEndpoints,
  connectionsGeneration,
  modelListing,
} from "./connections.ts";
import { type Env, setting } from "./fetch.ts";
import { ModelChoiceError, URL_MODEL_NAME } from "./model-choice-error.ts";
import { operatorNote } from "../../operator-words.ts";

export { ModelChoiceError, URL_MODEL_NAME };
export { DEFAULT_MAX_REPLY_TOKENS, replyTokenCeiling } from "./reply-ceiling.ts";

export const OPENAI_DEFAULT_MODEL = "gpt-4o-mini";
export const ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-4-5";
export const GOOGLE_DEFAULT_MODEL = "gemini-2.5-flash";

const openaiConfigured = (env: Env) => Boolean(setting(env, "OPENAI_API_KEY") || setting(env, "OPENAI_BASE_URL"));
const anthropicConfigured = (env: Env) =>
  Boolean(setting(env, "ANTHROPIC_API_KEY") || setting(env, "ANTHROPIC_BASE_URL"));
const googleConfigured = (env: Env) =>
  Boolean(setting(env, "GOOGLE_GENERATIVE_AI_API_KEY") || setting(env, "GOOGLE_BASE_URL"));

/** "openai-compatible" when a base URL points elsewhere, else "openai". */
export const openaiProviderName = (env: Env) => (setting(env, "OPENAI_BASE_URL") ? "openai-compatible" : "openai");

export const PROVIDER_NAMES = ["openai", "anthropic", "google"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** The environment each provider is configured by, named in errors. */
const SETUP: Record<ProviderName, string> = {
  openai: "OPENAI_API_KEY (or OPENAI_BASE_URL for an OpenAI-compatible server)",
  anthropic: "ANTHROPIC_API_KEY (and ANTHROPIC_BASE_URL to use another endpoint)",
  google: "GOOGLE_GENERATIVE_AI_API_KEY (and GOOGLE_BASE_URL to use another endpoint)",
};

const CONFIGURED: Record<ProviderName, (env: Env) => boolean> = {
  openai: openaiConfigured,
  anthropic: anthropicConfigured,
  google: googleConfigured,
};

/** The models GET /api/models offers per provider (besides the default); any other id the provider knows works too. */
const OFFERED: Record<ProviderName, readonly string[]> = {
  openai: ["gpt-4o-mini", "gpt-4o", "gpt-4.1", "gpt-4.1-mini", "gpt-5", "gpt-5-mini"],
  anthropic: ["claude-sonnet-4-5", "claude-opus-4-5", "claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4-0"],
  google: [
    "gemini-2.5-pro",
    "gemini-2.5-flash",
    "gemini-2.5-flash-lite",
    "gemini-3-pro-preview",
    "gemini-3-flash-preview",
  ],
};

export const configuredProviders = (env: Env = process.env): ProviderName[] =>
  PROVIDER_NAMES.filter((p) => CONFIGURED[p](env));

/** `anthropic/claude-sonnet-4-5` → anthropic + claude-sonnet-4-5; an id without a known provider prefix is bare. */
export function parseModelId(id: string): { provider: ProviderName | undefined; model: string } {
  const slash = id.indexOf("/");
  const prefix = slash > 0 ? id.slice(0, slash) : "";
  if ((PROVIDER_NAMES as readonly string[]).includes(prefix))
    return { provider: prefix as ProviderName, model: id.slice(slash + 1) };
  return { provider: undefined, model: id };
}

const isDemoId = (id: string) => id === DEMO_MODEL_ID || id === `demo/${DEMO_MODEL_ID}`;

/** The demo model is a choice beside every provider unless HINTLINE_DEMO=off. */
export const demoOffered = (env: Env) => setting(env, "HINTLINE_DEMO")?.toLowerCase() !== "off";

/** The connection (added over the API, enabled) an id's prefix names, if any. */
function connectionOf(id: string): { endpoint: ConnectionEndpoint; model: string } | undefined {
  const slash = id.indexOf("/");
  const endpoint = slash > 0 ? connectionEndpoint(id.slice(0, slash)) : undefined;
  return endpoint && { endpoint, model: id.slice(slash + 1) };
}

/** Without a provider in the environment: HINTLINE_MODEL when it names a connection's model, else the demo (or, when it is off, the first connection's first model). */
function defaultWithoutEnvironment(env: Env): string {
  const named = setting(env, "HINTLINE_MODEL");
  if (named && connectionOf(named)?.endpoint.enabled) return named;
  if (demoOffered(env)) return DEMO_MODEL_ID;
  for (const endpoint of connectionEndpoints()) {
    const first = endpoint.enabled ? modelListing(endpoint.id)?.models[0] : undefined;
    if (first) return `${endpoint.id}/${first.name}`;
  }
  return DEMO_MODEL_ID;
}

/** The model a conversation uses unless it chose another: HINTLINE_MODEL, else the first configured provider's. */
export function defaultModelId(env: Env = process.env): string {
  const configured = configuredProviders(env);
  if (configured.length === 0) return defaultWithoutEnvironment(env);
  const named = setting(env, "HINTLINE_MODEL");
  if (named) return named;
  if (configured.includes("openai")) return OPENAI_DEFAULT_MODEL;
  return configured[0] === "anthropic" ? `anthropic/${ANTHROPIC_DEFAULT_MODEL}` : `google/${GOOGLE_DEFAULT_MODEL}`;
}

export type Choice = {
  provider: ProviderName | "demo" | "connection";
  model: string;
  info: ModelInfo;
  /** The connection's endpoint and key, for provider "connection". */
  endpoint?: ConnectionEndpoint;
};

const windowOverride = (env: Env) => {
  const n = Number(setting(env, "HINTLINE_CONTEXT_WINDOW"));
  return Number.isFinite(n) && n > 0 ? n : undefined;
};

/** What `id` means under this environment, or a ModelChoiceError naming what to set. */
export function chooseModel(id: string, env: Env = process.env): Choice {
  const override = windowOverride(env);
  const configured = configuredProviders(env);
  if (isDemoId(id)) {
    if (!demoOffered(env))
      throw new ModelChoiceError(
        `The demo model is turned off on this server${operatorNote(" (HINTLINE_DEMO=off)", "")}; choose another model.`,
      );
    return {
      provider: "demo",
      model: DEMO_MODEL_ID,
      info: {
        id: DEMO_MODEL_ID,
        provider: "demo",
        contextWindow: contextWindowFor(DEMO_MODEL_ID, override),
        isDemo: true,
      },
    };
  }
  const connection = connectionOf(id);
  if (connection) {
    const info = chooseConnectionModel(connection.endpoint, connection.model, override);
    return { provider: "connection", model: connection.model, info, endpoint: connection.endpoint };
  }
  const parsed = parseModelId(id);
  if (!parsed.model.trim())
    throw new ModelChoiceError(
      `"${id}" names no model: write provider/model, e.g. anthropic/${ANTHROPIC_DEFAULT_MODEL}.`,
    );
  if (parsed.provider === undefined) {
    // A bare id: OpenAI or the OpenAI-compatible server, as before providers could be named.
    if (!configured.includes("openai")) {
      const prefix = id.includes("/") ? id.slice(0, id.indexOf("/")) : "";
      throw new ModelChoiceError(
        prefix
          ? `"${id}" names no connection of this server ("${prefix}" is not one: add it in Settings → Models & connections) and no provider (anthropic/…, google/…).`
          : `"${id}" has no provider prefix, which means OpenAI, and OpenAI is not configured${operatorNote(`: set ${SETUP.openai}, or name the provider (anthropic/…, google/…).`, " on this server. Choose another model, or ask whoever runs this Hintline server to set it up.")}`,
      );
    }
    // A local server's models are many and unlisted: an unknown one gets the conservative fallback window, as always.
    return {
      provider: "openai",
      model: id,
      info: { id, provider: openaiProviderName(env), contextWindow: contextWindowFor(id, override), isDemo: false },
    };
  }
  const { provider, model } = parsed;
  if (provider === "google" && !URL_MODEL_NAME.test(model)) {
    throw new ModelChoiceError(
      `"${id}" cannot be a Gemini model: its name goes into the request's URL, so it may hold only letters, digits and . _ : - (starting with a letter or digit), e.g. google/${GOOGLE_DEFAULT_MODEL}.`,
    );
  }
  if (!configured.includes(provider))
    throw new ModelChoiceError(
      `${id} needs the ${provider} provider${operatorNote(`: set ${SETUP[provider]}.`, `, which this server is not set up for. Choose another model, or ask whoever runs this Hintline server to set it up.`)}`,
    );
  const window = override ?? knownContextWindow(model);
  if (window === undefined) {
    throw new ModelChoiceError(
      `Hintline does not know the context window of ${id}${operatorNote(": set HINTLINE_CONTEXT_WINDOW to its size in tokens.", `, so it cannot be used yet. Choose another model, or ask whoever runs this Hintline server to set its window.`)}`,
    );
  }
  const label = provider === "openai" ? openaiProviderName(env) : provider;
  return { provider, model, info: { id, provider: label, contextWindow: Math.floor(window), isDemo: false } };
}

/**
 * The models a conversation may choose (GET /api/models): the default first, then each configured provider's, each
 * enabled connection's as its server listed them, and the demo (unless HINTLINE_DEMO=off).
 */
export function listModels(env: Env = process.env): { default: string; models: ModelInfo[] } {
  const id = defaultModelId(env);
  const models: ModelInfo[] = [];
  const seen = new Set<string>();
  const add = (candidate: string) => {
    try {
      const { provider, model, info, endpoint } = chooseModel(candidate, env);
      const key = endpoint ? info.id : `${provider}/${model}`;
      if (seen.has(key)) return;
      seen.add(key);
      models.push(info);
    } catch {
      // A default that cannot be used is reported where it is used; the list offers what works.
    }
  };
  add(id);
  for (const provider of configuredProviders(env)) {
    // An OpenAI-compatible server's models are its own: only the configured one is offered.
    if (provider === "openai" && setting(env, "OPENAI_BASE_URL")) continue;
    for (const model of OFFERED[provider]) add(`${provider}/${model}`);
  }
  for (const endpoint of connectionEndpoints()) {
    if (!endpoint.enabled) continue;
    for (const model of modelListing(endpoint.id)?.models ?? []) add(`${endpoint.id}/${model.name}`);
  }
  if (demoOffered(env)) add(DEMO_MODEL_ID);
  return { default: id, models };
}

/** What decides the models resolved from the environment (they are resolved again when it changes). */
const ENV_KEYS = [
  "OPENAI_API_KEY",
  "OPENAI_BASE_URL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "GOOGLE_GENERATIVE_AI_API_KEY",
  "GOOGLE_BASE_URL",
  "HINTLINE_MODEL",
  "HINTLINE_CONTEXT_WINDOW",
  "HINTLINE_UTILITY_MODEL",
  "HINTLINE_DEMO",
];
let cache: { key: string; choices: Map<string, Choice>; offered?: ReadonlySet<string> } | undefined;

/** The choices made under this process's environment as it is now (forgotten when it changes). */
function currentCache(env: Env) {
  const key = `${connectionsGeneration()}|${ENV_KEYS.map((k) => env[k]).join("|")}`;
  if (!cache || cache.key !== key) cache = { key, choices: new Map() };
  return cache;
}

/**
 * What `id` (undefined or null: the default) means under this process's environment, chosen once per process and
 * environment (the same object until the environment changes); a ModelChoiceError when it cannot be used.
 */
export function choiceFor(id?: string | null): Choice {
  const env = process.env;
  const cache = currentCache(env);
  const wanted = id || defaultModelId(env);
  let choice = cache.choices.get(wanted);
  if (!choice) {
    choice = chooseModel(wanted, env);
    cache.choices.set(wanted, choice);
    void selectEncodingFor(choice.info.id);
  }
  return choice;
}

/** The ids GET /api/models offers under this process's environment, and HINTLINE_UTILITY_MODEL: a bounded set. */
export function offeredModelIds(): ReadonlySet<string> {
  const env = process.env;
  const cache = currentCache(env);
  const utility = setting(env, "HINTLINE_UTILITY_MODEL");
  cache.offered ??= new Set([...listModels(env).models.map((m) => m.id), ...(utility ? [utility] : [])]);
  return cache.offered;
}

/**
 * A conversation's model as the page shows it: as chosen, or (when the environment no longer allows it) its id with
 * the fallback window, so a page still opens and the next message reports the reason.
 */
export function modelInfoFor(id?: string | null): ModelInfo {
  try {
    return choiceFor(id).info;
  } catch {
    const wanted = id || defaultModelId(process.env);
    return {
      id: wanted,
      provider: parseModelId(wanted).provider ?? "openai",
      contextWindow: contextWindowFor(wanted, windowOverride(process.env)),
      isDemo: false,
    };
  }
}
