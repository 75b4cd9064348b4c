// The model endpoints added over the API (/api/connections), as this process knows them now: lib/chat/connections.ts
// reads them from the database (every instance the same rows, again on a change and on a timer) and puts them here
// with the models each serves, so that choosing a model stays synchronous (./choice.ts).
import type { ConnectionKind } from "../../api/connection-schemas.ts";

export type { ConnectionKind };

export type ServedModel = {
  name: string;
  contextWindow?: number;
  /** "server": the server said so; "ollama-default": Ollama's default context (4,096), which HINTLINE_CONTEXT_WINDOW overrides. */
  windowSource?: "server" | "ollama-default";
};

export type ConnectionEndpoint = {
  id: string;
  kind: ConnectionKind;
  baseUrl?: string;
  /** The key in plain text (never hand it to a response or a log). */
  apiKey?: string;
  enabled: boolean;
  /** A key is stored that this server's secret cannot open (HINTLINE_SECRET changed, or another instance's file). */
  keyUnreadable?: boolean;
};

/** What the endpoint served when it was last asked (GET /v1/models), or why asking failed. */
export type ModelListing = { models: ServedModel[]; error?: string; listedAt: number; truncated?: boolean };

type Registry = {
  endpoints: Map<string, ConnectionEndpoint>;
  listings: Map<string, ModelListing>;
  generation: number;
  loaded: boolean;
};
const holder = globalThis as unknown as { __hintlineConnections?: Registry };
holder.__hintlineConnections ??= { endpoints: new Map(), listings: new Map(), generation: 0, loaded: false };
const registry = holder.__hintlineConnections;

const same = (a: ConnectionEndpoint | undefined, b: ConnectionEndpoint) => JSON.stringify(a) === JSON.stringify(b);

/** Replaces the known endpoints; the listings of those gone or changed are forgotten. */
export function setConnectionEndpoints(endpoints: readonly ConnectionEndpoint[]): void {
  const next = new Map<string, ConnectionEndpoint>();
  let changed = !registry.loaded || endpoints.length !== registry.endpoints.size;
  for (const endpoint of endpoints) {
    const known = registry.endpoints.get(endpoint.id);
    // Unchanged: the same object, so that a listing under way for it still counts (lib/chat/connection-sync.ts).
    if (known && same(known, endpoint)) {
      next.set(endpoint.id, known);
      continue;
    }
    next.set(endpoint.id, endpoint);
    changed = true;
    registry.listings.delete(endpoint.id);
  }
  for (const id of registry.listings.keys()) if (!next.has(id)) registry.listings.delete(id);
  registry.endpoints = next;
  registry.loaded = true;
  if (changed) registry.generation++;
}

export function setModelListing(id: string, listing: ModelListing): void {
  if (!registry.endpoints.has(id)) return;
  registry.listings.set(id, listing);
  registry.generation++;
}

export const connectionEndpoint = (id: string): ConnectionEndpoint | undefined => registry.endpoints.get(id);
export const connectionEndpoints = (): ConnectionEndpoint[] => [...registry.endpoints.values()];
export const modelListing = (id: string): ModelListing | undefined => registry.listings.get(id);
/** Changes whenever an endpoint or a listing does: what was chosen before is chosen again. */
export const connectionsGeneration = (): number => registry.generation;
export const connectionsLoaded = (): boolean => registry.loaded;
