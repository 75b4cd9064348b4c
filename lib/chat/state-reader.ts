// Reading a workspace's state sources before a reasoning step (issue 48). Each enabled source is read at most once per
// refreshSeconds per process (a small bounded cache keyed by workspace and name; instances each read on their own), and
// a step waits for a read no longer than the source's timeoutSeconds: an answer that comes later is kept and used at
// the next step. An http source is a GET through the bounded outbound fetch (the MCP servers' address rules, no
// redirect, at most STATE_MAX_BYTES); an mcp-resource source a resource read with the MCP client. A failure is kept in
// Hintline's words, never the answer's, with the time the source began to fail. A source on a server that advertises
// resources.subscribe is also kept subscribed (state-subscriptions.ts): an update the server pushes makes its reading
// due at once, and it is read over the subscription's open connection.
import {
  parseStateAnswer,
  STATE_MAX_BYTES,
  STATE_READ_HARD_LIMIT_MS,
  type ParsedState,
} from "../agent/state-source-rules.ts";
import type { StateReading, StateSourceNow } from "../agent/state-sources.ts";
import { connectMcp, describeMcpError } from "../ai/mcp/connect.ts";
import { OutboundAddressError, privateAddressesAllowed } from "../ai/outbound-address.ts";
import { outboundFetch, ResponseTooLargeError } from "../ai/outbound-fetch.ts";
import { approximateBytes, sharedBoundedMap } from "../bounded-map.ts";
import { readingDue } from "../agent/state-subscription-rules.ts";
import { now as clockNow } from "../clock.ts";
import { logFailure } from "../log/logger.ts";
import { cutOutsideNotes, wordsFor } from "../operator-words.ts";
import { workspaceMcpConfigs } from "./mcp-servers.ts";
import { configOf, enabledStateSources, readStateSourceRow, type StateSourceConfig } from "./state-sources.ts";
import { stateSubscriptions } from "./state-subscriptions.ts";

type Entry = {
  /** The source's version this entry read (an edited source starts afresh). */
  version: string;
  reading?: StateReading;
  /** When the last read started (ms on the clock). */
  startedAt: number;
  inFlight?: Promise<void>;
  /** The server pushed an update (or its subscription ended) since the last read began: the reading is due. */
  pushed?: boolean;
};

// Bounded by count and by what the readings hold (a reading is at most STATE_MAX_BYTES of fields).
const readings = sharedBoundedMap<string, Entry>("state-source-readings", {
  maxEntries: 2_000,
  maxBytes: 16 * 1024 * 1024,
  sizeOf: (key, entry) => 2 * key.length + approximateBytes(entry.reading ?? null) + 64,
});
const keyOf = (workspaceId: string, name: string) => `${workspaceId}\u0000${name}`;

/** The cache entry of a source's version (an edited source starts afresh). */
function entryFor(source: StateSourceConfig): Entry {
  const key = keyOf(source.workspaceId, source.name);
  let entry = readings.get(key);
  if (!entry || entry.version !== source.version) {
    entry = { version: source.version, startedAt: Number.NEGATIVE_INFINITY };
    readings.set(key, entry);
  }
  return entry;
}

/** Marks a source's reading due (its server pushed an update), if this process holds a reading of its version. */
function markDue(source: StateSourceConfig): void {
  const entry = readings.get(keyOf(source.workspaceId, source.name));
  if (entry?.version === source.version) entry.pushed = true;
}

/** Why a fetch failed, in words that hold no part of the answer. */
function fetchFailure(error: unknown, timedOut: boolean): string {
  if (timedOut) return `it gave no answer within ${STATE_READ_HARD_LIMIT_MS / 1000} s`;
  if (error instanceof OutboundAddressError) return `its URL is refused: ${error.message}`;
  if (error instanceof ResponseTooLargeError) return error.message;
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  const code = typeof cause?.code === "string" ? ` (${cause.code})` : "";
  const inner = typeof cause?.message === "string" && /redirect/.test(cause.message) ? `: ${cause.message}` : "";
  return `it could not be reached${code}${inner}`;
}

async function readHttp(source: StateSourceConfig, signal: AbortSignal): Promise<ParsedState> {
  const fetch = outboundFetch({ allowPrivate: privateAddressesAllowed(), maxResponseBytes: STATE_MAX_BYTES });
  let response: Response;
  try {
    response = await fetch(source.url ?? "", {
      headers: { ...source.headers, accept: "application/json" },
      signal,
    });
  } catch (error) {
    return { ok: false, reason: fetchFailure(error, signal.aborted) };
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => {});
    return {
      ok: false,
      reason: `it answered HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`,
    };
  }
  try {
    return parseStateAnswer(await response.text());
  } catch (error) {
    return { ok: false, reason: fetchFailure(error, signal.aborted) };
  }
}

/** A resource's text: a flat JSON object is its fields; any other text is one field, `content`. */
function resourceFields(texts: string[]): ParsedState {
  if (!texts.length) return { ok: false, reason: "the resource holds no text" };
  const text = texts.join("\n");
  if (Buffer.byteLength(text) > STATE_MAX_BYTES)
    return { ok: false, reason: new ResponseTooLargeError(STATE_MAX_BYTES).message };
  const trimmed = text.trim();
  if (trimmed.startsWith("{")) return parseStateAnswer(trimmed);
  return { ok: true, fields: { content: trimmed } };
}

const resourceFailure = (error: unknown, signal: AbortSignal): ParsedState =>
  signal.aborted
    ? { ok: false, reason: fetchFailure(error, true) }
    : { ok: false, reason: `reading the resource failed: ${cutOutsideNotes(describeMcpError(error), 200)}` };

/**
 * A resource read: over the source's subscription when one stands, else connect, read and close. `subscribe`: a
 * reasoning step reads it, so a server that advertises resources.subscribe gets the source kept subscribed.
 */
async function readMcpResource(
  source: StateSourceConfig,
  signal: AbortSignal,
  subscribe: boolean,
): Promise<ParsedState> {
  const subscriptions = stateSubscriptions();
  const server = (await workspaceMcpConfigs(source.workspaceId)).find((s) => s.name === source.server);
  if (!server?.enabled) void subscriptions.endSource(source.workspaceId, source.name);
  if (!server) return { ok: false, reason: `the workspace has no MCP server named ${source.server}` };
  if (!server.enabled) return { ok: false, reason: `the MCP server ${server.name} is switched off` };
  const live = subscriptions.live(source, server);
  if (live) {
    try {
      return resourceFields(await live.readTexts(signal, STATE_READ_HARD_LIMIT_MS));
    } catch (error) {
      if (signal.aborted) return resourceFailure(error, signal);
      // The connection broke: it is opened again later; this read connects afresh.
      subscriptions.failed(source);
    }
  }
  let client: Awaited<ReturnType<typeof connectMcp>> | undefined;
  try {
    client = await connectMcp(server, STATE_READ_HARD_LIMIT_MS);
    if (subscribe && client.initializeResult?.capabilities?.resources?.subscribe === true)
      subscriptions.keep(source, server, () => markDue(source));
    if (signal.aborted) throw signal.reason;
    const result = await client.readResource({
      uri: source.uri ?? "",
      options: { signal, timeout: STATE_READ_HARD_LIMIT_MS },
    });
    return resourceFields(result.contents.flatMap((c) => ("text" in c && typeof c.text === "string" ? [c.text] : [])));
  } catch (error) {
    return resourceFailure(error, signal);
  } finally {
    await client?.close().catch(logFailure("closing an MCP connection failed", { server: server.name }));
  }
}

/** One read of a source, never longer than STATE_READ_HARD_LIMIT_MS (`subscribe`: see readMcpResource). */
export async function readStateSourceOnce(source: StateSourceConfig, subscribe = false): Promise<ParsedState> {
  const signal = AbortSignal.timeout(STATE_READ_HARD_LIMIT_MS);
  try {
    return source.kind === "http" ? await readHttp(source, signal) : await readMcpResource(source, signal, subscribe);
  } catch (error) {
    logFailure("reading a state source failed", { source: source.name })(error);
    return { ok: false, reason: "reading it failed on Hintline's side (the server's log has the cause)" };
  }
}

function startRead(entry: Entry, source: StateSourceConfig, now: () => Date, subscribe = false): Promise<void> {
  entry.startedAt = now().getTime();
  // A push that comes while this read is under way makes the next step read again (it may have read the older text).
  entry.pushed = false;
  const read = readStateSourceOnce(source, subscribe).then((parsed) => {
    const at = now().toISOString();
    const before = entry.reading;
    entry.reading = parsed.ok
      ? { ok: true, fields: parsed.fields, readAt: at }
      : { ok: false, reason: parsed.reason, since: before && !before.ok ? before.since : at };
    // Set again, so that the cache counts what the reading holds (unless it let the entry go meanwhile).
    const key = keyOf(source.workspaceId, source.name);
    if (readings.get(key) === entry) readings.set(key, entry);
  });
  entry.inFlight = read.finally(() => {
    entry.inFlight = undefined;
  });
  return entry.inFlight;
}

const within = (promise: Promise<void>, ms: number) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    void promise.finally(() => {
      clearTimeout(timer);
      resolve();
    });
  });

/**
 * The workspace's enabled sources with their latest readings, reading those whose refresh is due and waiting for each
 * read at most its source's timeout (a reading still under way is picked up by a later step).
 */
export async function readStateSources(workspaceId: string, now: () => Date = clockNow): Promise<StateSourceNow[]> {
  const sources = await enabledStateSources(workspaceId);
  stateSubscriptions().used(workspaceId, sources);
  const entries = sources.map((source) => {
    const entry = entryFor(source);
    const due = readingDue({
      nowMs: now().getTime(),
      startedAt: entry.startedAt,
      refreshSeconds: source.refreshSeconds,
      pushed: entry.pushed === true,
    });
    const wait = entry.inFlight ?? (due ? startRead(entry, source, now, true) : undefined);
    return { source, entry, wait };
  });
  await Promise.all(entries.map(({ source, wait }) => wait && within(wait, source.timeoutSeconds * 1000)));
  return entries.map(({ source, entry }) => ({
    name: source.name,
    maxTokens: source.maxTokens,
    ...(entry.reading ? { reading: entry.reading } : {}),
  }));
}

/** "Read now": one read of a source, waited for, that also becomes its latest reading. */
export async function readStateSourceNow(source: StateSourceConfig, now: () => Date = clockNow): Promise<StateReading> {
  const entry = entryFor(source);
  await (entry.inFlight ?? startRead(entry, source, now));
  return entry.reading!;
}

/**
 * POST …/state-sources/:name/read ("Read now" on the workspace page): the source read once, even when switched off,
 * answering its fields or why it failed. A switched-on source's reading becomes its latest (the next step uses it).
 */
export async function readStateSourceForPerson(
  workspaceId: string,
  name: string,
  { operator }: { operator: boolean },
): Promise<StateReading> {
  const source = configOf(await readStateSourceRow(workspaceId, name));
  const reading = source.enabled ? await readStateSourceNow(source) : await readDisabledOnce(source);
  // A variable to set is named to the operator only (lib/operator-words.ts).
  return reading.ok ? reading : { ...reading, reason: wordsFor(reading.reason, operator) };
}

async function readDisabledOnce(source: StateSourceConfig): Promise<StateReading> {
  const parsed = await readStateSourceOnce(source);
  const at = clockNow().toISOString();
  return parsed.ok ? { ok: true, fields: parsed.fields, readAt: at } : { ok: false, reason: parsed.reason, since: at };
}

/** The workspace's enabled sources with their latest readings in this process, reading none (the inspector's view). */
export async function latestStateReadings(workspaceId: string): Promise<StateSourceNow[]> {
  return (await enabledStateSources(workspaceId)).map((source) => {
    const entry = readings.get(keyOf(workspaceId, source.name));
    const reading = entry?.version === source.version ? entry.reading : undefined;
    return { name: source.name, maxTokens: source.maxTokens, ...(reading ? { reading } : {}) };
  });
}
