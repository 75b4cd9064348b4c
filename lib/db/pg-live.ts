// PostgreSQL's side of live replies when several instances share one database: reply leases (the one-reply lock),
// the live-chunk table a follower on another instance reads, and LISTEN/NOTIFY. The two tables hold only transient
// state (a lease lives seconds, chunks only while a reply streams): UNLOGGED, made by a PostgreSQL-only migration.
import type pg from "pg";
import { databaseUrl, getDb } from "./client.ts";
import { log, logFailure } from "../log/logger.ts";

// The tables come from a migration (prisma/migrations/postgresql/*_live_replies): creating them on first use raced
// when two instances started together (a unique violation in PostgreSQL's catalog failed every reply in flight).
const db = () => getDb();

/** Takes the conversation's reply lease unless a live one is held; true when taken. */
export async function takeLease(
  conversationId: string,
  replyId: string,
  instanceId: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await (await db()).$queryRawUnsafe<{ reply_id: string }[]>(
    `INSERT INTO hintline_live_reply (conversation_id, reply_id, instance_id, lease_until)
     VALUES ($1, $2, $3, now() + $4::integer * interval '1 millisecond')
     ON CONFLICT (conversation_id) DO UPDATE SET reply_id = EXCLUDED.reply_id, instance_id = EXCLUDED.instance_id,
       lease_until = EXCLUDED.lease_until
     WHERE hintline_live_reply.lease_until < now()
     RETURNING reply_id`,
    conversationId,
    replyId,
    instanceId,
    leaseMs,
  );
  return rows.length === 1;
}

/**
 * Takes over the lease of `replyId`, held by an instance pg-boss found dead (its job's heartbeat stopped), before
 * that lease runs out. Refused (false) when the conversation's lease names another reply and is still live.
 */
export async function adoptLease(
  conversationId: string,
  replyId: string,
  instanceId: string,
  leaseMs: number,
): Promise<boolean> {
  const rows = await (await db()).$queryRawUnsafe<{ reply_id: string }[]>(
    `INSERT INTO hintline_live_reply (conversation_id, reply_id, instance_id, lease_until)
     VALUES ($1, $2, $3, now() + $4::integer * interval '1 millisecond')
     ON CONFLICT (conversation_id) DO UPDATE SET reply_id = EXCLUDED.reply_id, instance_id = EXCLUDED.instance_id,
       lease_until = EXCLUDED.lease_until
     WHERE hintline_live_reply.reply_id = EXCLUDED.reply_id OR hintline_live_reply.lease_until < now()
     RETURNING reply_id`,
    conversationId,
    replyId,
    instanceId,
    leaseMs,
  );
  return rows.length === 1;
}

/**
 * Renews the leases `instanceId` holds of `replyIds`; returns those of them another instance holds now (it took them
 * over while this one was silent: a paused process, a stalled machine), which this one must stop writing.
 */
export async function renewLeases(replyIds: string[], leaseMs: number, instanceId: string): Promise<string[]> {
  if (replyIds.length === 0) return [];
  const rows = await (await db()).$queryRawUnsafe<{ reply_id: string }[]>(
    `WITH renewed AS (
       UPDATE hintline_live_reply SET lease_until = now() + $2::integer * interval '1 millisecond'
        WHERE reply_id = ANY($1::text[]) AND instance_id = $3 RETURNING reply_id
     )
     SELECT reply_id FROM hintline_live_reply WHERE reply_id = ANY($1::text[]) AND instance_id <> $3`,
    replyIds,
    leaseMs,
    instanceId,
  );
  return rows.map((row) => row.reply_id);
}

/** Drops the lease `instanceId` holds (never one another instance took over). */
export async function dropLease(conversationId: string, replyId: string, instanceId: string): Promise<void> {
  await (await db()).$executeRawUnsafe(
    `DELETE FROM hintline_live_reply WHERE conversation_id = $1 AND reply_id = $2 AND instance_id = $3`,
    conversationId,
    replyId,
    instanceId,
  );
}

export type Lease = { replyId: string; instanceId: string; leaseUntil: Date };

/** The conversation's live lease (one whose time has not run out), if any. */
export async function liveLease(conversationId: string): Promise<Lease | undefined> {
  const rows = await (await db()).$queryRawUnsafe<{ reply_id: string; instance_id: string; lease_until: Date }[]>(
    `SELECT reply_id, instance_id, lease_until FROM hintline_live_reply WHERE conversation_id = $1 AND lease_until > now()`,
    conversationId,
  );
  const row = rows[0];
  return row
    ? { replyId: row.reply_id, instanceId: row.instance_id, leaseUntil: new Date(row.lease_until) }
    : undefined;
}

/** The conversations of `ownerId` (accounts mode) whose replies hold a live lease: being written by some instance. */
export async function liveLeasesOfOwner(ownerId: string): Promise<string[]> {
  const rows = await (await db()).$queryRawUnsafe<{ conversation_id: string }[]>(
    `SELECT l.conversation_id FROM hintline_live_reply l JOIN "Conversation" c ON c."id" = l.conversation_id
     WHERE c."ownerId" = $1 AND l.lease_until > now()`,
    ownerId,
  );
  return rows.map((r) => r.conversation_id);
}

/** Appends chunks (SSE lines) of a reply from `seq` on. */
export async function appendChunks(replyId: string, seq: number, chunks: string[]): Promise<void> {
  if (chunks.length === 0) return;
  await (await db()).$executeRawUnsafe(
    `INSERT INTO hintline_live_chunk (reply_id, seq, data)
     SELECT $1, $2::integer + ordinality::integer - 1, data FROM unnest($3::text[]) WITH ORDINALITY AS t(data, ordinality)
     ON CONFLICT DO NOTHING`,
    replyId,
    seq,
    chunks,
  );
}

export async function readChunks(
  replyId: string,
  afterSeq: number,
  limit: number,
): Promise<{ seq: number; data: string }[]> {
  return (await db()).$queryRawUnsafe<{ seq: number; data: string }[]>(
    `SELECT seq, data FROM hintline_live_chunk WHERE reply_id = $1 AND seq > $2::integer ORDER BY seq LIMIT $3::integer`,
    replyId,
    afterSeq,
    limit,
  );
}

/** Drops a finished reply's chunks, and any left by an instance that died (older than `olderThanMs`). */
export async function dropChunks(replyId: string, olderThanMs: number): Promise<void> {
  await (await db()).$executeRawUnsafe(
    `DELETE FROM hintline_live_chunk WHERE reply_id = $1 OR created_at < now() - $2::integer * interval '1 millisecond'`,
    replyId,
    olderThanMs,
  );
}

export async function notify(channel: string, payload: string): Promise<void> {
  // pg_notify returns void, which Prisma cannot read back: select a constant instead.
  await (await getDb()).$queryRawUnsafe(`SELECT 1 AS sent FROM (SELECT pg_notify($1, $2)) AS n`, channel, payload);
}

type Handler = (payload: string) => void;
const holder = globalThis as unknown as {
  __hintlineListen?: { handlers: Map<string, Set<Handler>>; client?: Promise<pg.Client> };
};
holder.__hintlineListen ??= { handlers: new Map() };
const listening = holder.__hintlineListen;

const RECONNECT_FIRST_MS = 1_000;
const RECONNECT_MAX_MS = 30_000;
let retrying = false;

/** Opens the LISTEN connection again after `ms`, then keeps trying (doubling the wait up to 30 s) until it is open. */
function retryListen(ms: number): void {
  if (retrying) return;
  retrying = true;
  setTimeout(() => {
    retrying = false;
    if (listening.client) return;
    connect().then(
      () => log().info("the LISTEN connection is open again"),
      (error) => {
        const next = Math.min(ms * 2, RECONNECT_MAX_MS);
        logFailure(`reconnecting the LISTEN connection failed; trying again in ${next / 1000} s`)(error);
        retryListen(next);
      },
    );
  }, ms).unref?.();
}

function connect(): Promise<pg.Client> {
  let self: Promise<pg.Client> | undefined;
  listening.client ??= self = (async () => {
    // The driver is loaded by the first LISTEN (PostgreSQL only): a server on SQLite never needs it.
    const { default: driver } = await import("pg");
    const client = new driver.Client({ connectionString: databaseUrl() });
    client.on("notification", (message) => {
      for (const handler of listening.handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? "");
        } catch (error) {
          // one handler's failure is not the others'
          logFailure("a notification handler failed", { channel: message.channel })(error);
        }
      }
    });
    // A lost connection is opened again (with every channel), retried until the database answers again.
    let lost = false;
    let connected = false;
    const reconnect = (error?: unknown) => {
      // A connection that never opened is reported by connect()'s rejection, to whoever asked.
      if (lost || !connected) return;
      lost = true;
      if (listening.client === self) listening.client = undefined;
      logFailure("the LISTEN connection was lost; reconnecting")(error ?? new Error("connection ended"));
      retryListen(RECONNECT_FIRST_MS);
    };
    client.on("error", reconnect);
    client.on("end", reconnect);
    await client.connect();
    connected = true;
    for (const channel of listening.handlers.keys()) await client.query(`LISTEN "${channel}"`);
    return client;
  })().catch((error) => {
    if (listening.client === self) listening.client = undefined;
    throw error;
  });
  return listening.client;
}

/** Calls `handler` with every NOTIFY on `channel` (channel names are fixed identifiers of this module's callers). */
export async function listen(channel: string, handler: Handler): Promise<void> {
  if (!/^[a-z_]+$/.test(channel)) throw new Error(`bad channel ${channel}`);
  const fresh = !listening.handlers.has(channel);
  const handlers = listening.handlers.get(channel) ?? new Set<Handler>();
  listening.handlers.set(channel, handlers);
  handlers.add(handler);
  const client = await connect();
  if (fresh) await client.query(`LISTEN "${channel}"`);
}
