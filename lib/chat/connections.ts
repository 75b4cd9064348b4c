// Connections: model endpoints an admin adds, edits, disables and deletes over the API (any instance, no restart),
// beside the providers the environment configures, which are listed read-only. Keys are write-only: stored
// encrypted (./connection-secret.ts), shown only as `apiKeySet`. Adding one, or changing where it points, asks its
// server for its models first: a URL that answers nothing or no model list is a 400 and nothing is stored.
import type { ConnectionKind, CreateConnection, UpdateConnection } from "../api/connection-schemas.ts";
import { ApiError } from "../api/errors.ts";
import { configuredProviders, listModels, openaiProviderName, type ProviderName } from "../ai/providers/choice.ts";
import { connectionEndpoint, modelListing } from "../ai/providers/connections.ts";
import { type ListingResult, listServedModels } from "../ai/providers/served-models.ts";
import { authMode } from "../auth/mode.ts";
import type { Viewer } from "../auth/viewer.ts";
import {
  type ConnectionRow,
  createConnection,
  deleteConnection,
  getConnection,
  listConnections,
  updateConnection,
} from "../db/connections.ts";
import type { ModelInfo } from "../chat-message.ts";
import { sealSecret } from "./connection-secret.ts";
import {
  connectionsChanged,
  connectionsReady,
  listingTimeoutMs,
  refreshAllListings,
  refreshListing,
  rereadConnections,
} from "./connection-sync.ts";

export const MAX_CONNECTIONS = 50;
/** Ids the environment's providers and the demo are chosen by: a connection cannot take them. */
const RESERVED_IDS = new Set(["openai", "anthropic", "google", "demo", "openai-compatible"]);

const ENV_SETTINGS: Record<ProviderName, { key: string; baseUrl: string }> = {
  openai: { key: "OPENAI_API_KEY", baseUrl: "OPENAI_BASE_URL" },
  anthropic: { key: "ANTHROPIC_API_KEY", baseUrl: "ANTHROPIC_BASE_URL" },
  google: { key: "GOOGLE_GENERATIVE_AI_API_KEY", baseUrl: "GOOGLE_BASE_URL" },
};

export type ConnectionView = {
  id: string;
  kind: ConnectionKind;
  baseUrl: string | null;
  /** Whether a key is stored; the key itself is never returned. */
  apiKeySet: boolean;
  enabled: boolean;
  source: "api" | "environment";
  editable: boolean;
  models: Array<Pick<ModelInfo, "id" | "contextWindow">>;
  /** Why its models could not be listed, the last time they were asked for. */
  error?: string;
  listedAt?: string;
  createdAt?: string;
  updatedAt?: string;
};

export type ConnectionTest =
  | { ok: true; models: Array<{ id: string; contextWindow?: number }> }
  | { ok: false; error: string };

/** Admins in accounts mode; the one person otherwise (who holds the token, or open mode's). */
function requireConnectionAdmin(viewer: Viewer): void {
  if (authMode() === "accounts" && !(viewer.kind === "user" && viewer.admin))
    throw new ApiError("forbidden", "Only an admin can see or change connections.");
}

const env = () => process.env;

function environmentViews(): ConnectionView[] {
  const { models } = listModels(env());
  return configuredProviders(env()).map((provider) => ({
    id: provider,
    kind: provider === "openai" ? openaiProviderName(env()) : provider,
    baseUrl: env()[ENV_SETTINGS[provider].baseUrl]?.trim() || null,
    apiKeySet: Boolean(env()[ENV_SETTINGS[provider].key]?.trim()),
    enabled: true,
    source: "environment",
    editable: false,
    models: models
      .filter(
        (m) =>
          !m.connection &&
          !m.isDemo &&
          (m.provider === provider || (provider === "openai" && m.provider === "openai-compatible")),
      )
      .map(({ id, contextWindow }) => ({ id, contextWindow })),
  }));
}

function storedView(row: ConnectionRow): ConnectionView {
  const listing = modelListing(row.id);
  const offered = row.enabled ? listModels(env()).models.filter((m) => m.connection === row.id) : [];
  return {
    id: row.id,
    kind: row.kind as ConnectionKind,
    baseUrl: row.baseUrl,
    apiKeySet: row.apiKey !== null,
    enabled: row.enabled,
    source: "api",
    editable: true,
    models: offered.map(({ id, contextWindow }) => ({ id, contextWindow })),
    ...(listing?.error ? { error: listing.error } : {}),
    ...(listing ? { listedAt: new Date(listing.listedAt).toISOString() } : {}),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export async function connectionViews(viewer: Viewer): Promise<ConnectionView[]> {
  requireConnectionAdmin(viewer);
  await connectionsReady();
  return [...environmentViews(), ...(await listConnections()).map(storedView)];
}

const fromEnvironment = (id: string) => (configuredProviders(env()) as string[]).includes(id);
const notEditable = (id: string) =>
  new ApiError(
    "conflict",
    `Connection ${id} is set by the server's environment variables and cannot be changed over the API; change them and restart instead.`,
  );
const missing = (id: string) => new ApiError("not_found", `Connection ${id} does not exist.`);

/** Asks the endpoint for its models, or refuses in words naming what failed (nothing stored). */
async function mustServe(
  endpoint: { kind: ConnectionKind; baseUrl?: string; apiKey?: string },
  id: string,
  outcome: "stored" | "changed",
) {
  const result = await listServedModels(endpoint, { timeoutMs: listingTimeoutMs() });
  if (!result.ok)
    throw new ApiError(
      "bad_request",
      `Connection ${id} was not ${outcome}: ${result.error}${/[.?!]$/.test(result.error) ? "" : "."}`,
      endpoint.baseUrl ? "baseUrl" : "apiKey",
    );
}

function checkShape(
  kind: ConnectionKind,
  baseUrl: string | null | undefined,
  apiKey: string | null | undefined,
  id: string,
) {
  if (kind === "openai-compatible" && !baseUrl)
    throw new ApiError(
      "bad_request",
      `Invalid baseUrl: an openai-compatible connection needs the server's URL, like http://localhost:11434/v1.`,
      "baseUrl",
    );
  if (kind !== "openai-compatible" && !apiKey && !baseUrl)
    throw new ApiError("bad_request", `Invalid apiKey: a ${kind} connection (${id}) needs its key.`, "apiKey");
}

export async function addConnection(viewer: Viewer, input: CreateConnection): Promise<ConnectionView> {
  requireConnectionAdmin(viewer);
  if (RESERVED_IDS.has(input.id))
    throw new ApiError(
      "bad_request",
      `Invalid id: "${input.id}" names a provider of the environment or the demo; choose another.`,
      "id",
    );
  checkShape(input.kind, input.baseUrl, input.apiKey, input.id);
  if (await getConnection(input.id)) throw new ApiError("conflict", `Connection ${input.id} exists already.`);
  await mustServe({ kind: input.kind, baseUrl: input.baseUrl, apiKey: input.apiKey }, input.id, "stored");
  const row = await createConnection({
    id: input.id,
    kind: input.kind,
    baseUrl: input.baseUrl ?? null,
    apiKey: input.apiKey ? sealSecret(input.apiKey) : null,
    enabled: input.enabled ?? true,
    max: MAX_CONNECTIONS,
  });
  if (row === "taken") throw new ApiError("conflict", `Connection ${input.id} exists already.`);
  if (row === "limit")
    throw new ApiError(
      "conflict",
      `There are ${MAX_CONNECTIONS} connections already, the most there may be; delete one first.`,
    );
  await connectionsChanged();
  await refreshListing(row.id);
  return storedView(row);
}

export async function editConnection(viewer: Viewer, id: string, patch: UpdateConnection): Promise<ConnectionView> {
  requireConnectionAdmin(viewer);
  if (fromEnvironment(id)) throw notEditable(id);
  const row = await getConnection(id);
  if (!row) throw missing(id);
  const kind = row.kind as ConnectionKind;
  const baseUrl = patch.baseUrl === undefined ? row.baseUrl : patch.baseUrl;
  const hasKey = patch.apiKey === undefined ? row.apiKey !== null : patch.apiKey !== null;
  checkShape(kind, baseUrl, hasKey ? "set" : null, id);
  if ((patch.baseUrl !== undefined || patch.apiKey !== undefined) && (patch.enabled ?? row.enabled)) {
    await connectionsReady();
    const known = connectionEndpoint(id);
    const apiKey = patch.apiKey === undefined ? known?.apiKey : (patch.apiKey ?? undefined);
    await mustServe({ kind, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) }, id, "changed");
  }
  const updated = await updateConnection(id, {
    baseUrl: patch.baseUrl,
    apiKey: patch.apiKey === undefined ? undefined : patch.apiKey === null ? null : sealSecret(patch.apiKey),
    enabled: patch.enabled,
  });
  if (!updated) throw missing(id);
  await connectionsChanged();
  if (updated.enabled) await refreshListing(id);
  return storedView(updated);
}

export async function removeConnection(viewer: Viewer, id: string): Promise<void> {
  requireConnectionAdmin(viewer);
  if (fromEnvironment(id)) throw notEditable(id);
  if (!(await deleteConnection(id))) throw missing(id);
  await connectionsChanged();
}

const testOf = (result: ListingResult, id: string): ConnectionTest =>
  result.ok
    ? {
        ok: true,
        models: result.models.map((m) => ({
          id: `${id}/${m.name}`,
          ...(m.contextWindow ? { contextWindow: m.contextWindow } : {}),
        })),
      }
    : { ok: false, error: result.error };

/** "Test": what the connection serves now, or what failed, in words (a 200 either way: the test ran). */
export async function testConnection(viewer: Viewer, id: string): Promise<ConnectionTest> {
  requireConnectionAdmin(viewer);
  await connectionsReady();
  if (fromEnvironment(id)) {
    const view = environmentViews().find((v) => v.id === id)!;
    const baseUrl = view.baseUrl ?? undefined;
    const kind = view.kind;
    const apiKey = env()[ENV_SETTINGS[id as ProviderName].key]?.trim() || undefined;
    const listed = await listServedModels(
      { kind, ...(baseUrl ? { baseUrl } : {}), ...(apiKey ? { apiKey } : {}) },
      { timeoutMs: listingTimeoutMs() },
    );
    return testOf(listed, id);
  }
  if (!connectionEndpoint(id)) {
    // Added on another instance a moment ago: read again before answering 404.
    await rereadConnections();
    if (!connectionEndpoint(id)) throw missing(id);
  }
  return testOf(await refreshListing(id), id);
}

let lastRefresh = 0;
const REFRESH_AT_MOST_EVERY_MS = 5_000;

/** GET /api/models: what a conversation may choose; `refresh` asks every connection again first (at most every 5 s). */
export async function modelChoices({ refresh }: { refresh: boolean }): Promise<ReturnType<typeof listModels>> {
  await connectionsReady();
  if (refresh && Date.now() - lastRefresh >= REFRESH_AT_MOST_EVERY_MS) {
    lastRefresh = Date.now();
    await refreshAllListings();
  }
  return listModels(env());
}
