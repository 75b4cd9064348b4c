// Keeps this process's view of the connections (lib/ai/providers/connections.ts) in step with the database, which
// every instance shares: read at start, again after a change made here, on PostgreSQL when another instance says it
// changed one (NOTIFY hintline_connections), and every CONNECTIONS_REREAD_MS whatever happens. Each enabled
// connection's models are asked of its server when it is first seen, every HINTLINE_MODELS_REFRESH_SECONDS, and on
// demand; each asking is bounded (lib/ai/providers/served-models.ts), and one at a time per connection.
import {
  type ConnectionEndpoint,
  type ConnectionKind,
  connectionEndpoint,
  connectionEndpoints,
  modelListing,
  setConnectionEndpoints,
  setModelListing,
} from "../ai/providers/connections.ts";
import { type ListingResult, listServedModels } from "../ai/providers/served-models.ts";
import { databaseUrl, isPostgresUrl } from "../db/client.ts";
import { listConnections } from "../db/connections.ts";
import { listen, notify } from "../db/pg-live.ts";
import { envNumber } from "../env-number.ts";
import { logFailure } from "../log/logger.ts";
import { addSecretSource } from "../secrets.ts";
import { openSecret } from "./connection-secret.ts";

const CHANNEL = "hintline_connections";
const CONNECTIONS_REREAD_MS = 30_000;

const within = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
export const listingTimeoutMs = () => within(envNumber("HINTLINE_CONNECTION_TIMEOUT_MS", 10_000), 100, 120_000);
const refreshMs = () => within(envNumber("HINTLINE_MODELS_REFRESH_SECONDS", 300), 5, 86_400) * 1000;

addSecretSource(() => connectionEndpoints().flatMap((e) => (e.apiKey ? [e.apiKey] : [])));

const holder = globalThis as unknown as {
  __hintlineConnectionSync?: {
    loading?: Promise<void>;
    started: boolean;
    listing: Map<string, { endpoint: ConnectionEndpoint; asking: Promise<ListingResult> }>;
  };
};
holder.__hintlineConnectionSync ??= { started: false, listing: new Map() };
const sync = holder.__hintlineConnectionSync;

/** The stored connections read again (keys decrypted into memory only), and the new or changed ones listed. */
export async function rereadConnections(): Promise<void> {
  const rows = await listConnections();
  setConnectionEndpoints(
    rows.map((row): ConnectionEndpoint => {
      const apiKey = row.apiKey === null ? undefined : openSecret(row.apiKey);
      return {
        id: row.id,
        kind: row.kind as ConnectionKind,
        ...(row.baseUrl ? { baseUrl: row.baseUrl } : {}),
        ...(apiKey !== undefined ? { apiKey } : {}),
        enabled: row.enabled,
        ...(row.apiKey !== null && apiKey === undefined ? { keyUnreadable: true } : {}),
      };
    }),
  );
  for (const endpoint of connectionEndpoints()) if (stale(endpoint.id)) void refreshListing(endpoint.id);
}

const stale = (id: string) => {
  const endpoint = connectionEndpoint(id);
  const listing = modelListing(id);
  return Boolean(endpoint?.enabled) && (!listing || Date.now() - listing.listedAt >= refreshMs());
};

/** Asks the connection's server what it serves now (joining an asking of the same endpoint under way) and remembers the answer. */
export function refreshListing(id: string): Promise<ListingResult> {
  const endpoint = connectionEndpoint(id);
  if (!endpoint) return Promise.resolve({ ok: false, error: `connection ${id} does not exist` });
  const running = sync.listing.get(id);
  if (running?.endpoint === endpoint) return running.asking;
  const asking = listServedModels(endpoint, { timeoutMs: listingTimeoutMs() })
    .then((result) => {
      // Changed meanwhile: this answer is about the old endpoint.
      if (connectionEndpoint(id) === endpoint)
        setModelListing(id, {
          models: result.ok ? result.models : [],
          listedAt: Date.now(),
          ...(result.ok ? { truncated: result.truncated } : { error: result.error }),
        });
      return result;
    })
    .finally(() => {
      if (sync.listing.get(id)?.asking === asking) sync.listing.delete(id);
    });
  sync.listing.set(id, { endpoint, asking });
  return asking;
}

/** Every enabled connection's models asked for again now (GET /api/models?refresh=1), each within its deadline. */
export async function refreshAllListings(): Promise<void> {
  await connectionsReady();
  await Promise.all(connectionEndpoints().flatMap((e) => (e.enabled ? [refreshListing(e.id)] : [])));
}

/** The first reading of the connections (again after one failed); every route that chooses a model awaits it. */
export function connectionsReady(): Promise<void> {
  sync.loading ??= rereadConnections().catch((error) => {
    sync.loading = undefined;
    throw error;
  });
  return sync.loading;
}

/** After a change made here: this process reads the rows again at once, the other instances on their NOTIFY. */
export async function connectionsChanged(): Promise<void> {
  await rereadConnections();
  if (isPostgresUrl(databaseUrl()))
    await notify(CHANNEL, "changed").catch(logFailure("telling the other instances of a connection change failed"));
}

/** Starts the reading: at once, on NOTIFY (PostgreSQL), and on a timer (unreferenced: it keeps no process alive). */
export function startConnectionSync(): void {
  if (sync.started) return;
  sync.started = true;
  const reread = () => void rereadConnections().catch(logFailure("reading the connections failed; trying again later"));
  void connectionsReady().catch(logFailure("reading the connections failed; trying again later"));
  if (isPostgresUrl(databaseUrl()))
    void listen(CHANNEL, reread).catch(logFailure("listening for connection changes failed"));
  setInterval(reread, Math.min(CONNECTIONS_REREAD_MS, refreshMs())).unref();
}
