// One Prisma client per process, on SQLite (default) or PostgreSQL, chosen by DATABASE_URL.
// Both generated clients share the same models, so the SQLite client's type describes either.
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import type BetterSqlite3 from "better-sqlite3";
import { PrismaClient } from "./generated/sqlite/client.ts";
import { directQueriesOn, type SqliteDirect } from "./sqlite-direct.ts";

export type Db = PrismaClient;

/**
 * Options for a transaction that writes many rows (a knowledge file's lines, a branch of a long conversation): Prisma's
 * 5 s default fails a 1 MiB upload on a busy machine, which is no reason to refuse it.
 */
export const LONG_TRANSACTION = { maxWait: 10_000, timeout: 60_000 } as const;

export const DEFAULT_DATABASE_URL = "file:./data/hintline.db";

export function databaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

type Connection = BetterSqlite3.Database;

function isConnection(value: unknown): value is Connection {
  const candidate = value as Partial<Connection> | null;
  return (
    typeof candidate?.prepare === "function" &&
    typeof candidate.transaction === "function" &&
    typeof candidate.inTransaction === "boolean"
  );
}

/**
 * Prisma's SQLite adapter, remembering the better-sqlite3 connection it opens (the adapter keeps it as `client`) so
 * that lib/db/sqlite-direct.ts can use the same one. If a Prisma upgrade hides it, every query takes the Prisma path.
 */
class SqliteAdapter extends PrismaBetterSqlite3 {
  connection: Connection | undefined;

  override async connect() {
    const adapter = await super.connect();
    const client = (adapter as unknown as { client?: unknown }).client;
    this.connection = isConnection(client) ? client : undefined;
    return adapter;
  }
}

// Prisma gives up on starting a transaction after 2 s by default (P2028). In a burst (two dozen replies starting at
// once on a 10-connection pool, or a busy SQLite writer) that refuses work that would have run a moment later; wait
// longer instead — each transaction here is short, so the queue drains.
const TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 10_000 };

type Holder = { url: string; db: Promise<Db>; sqlite?: SqliteAdapter };

async function createDb(url: string, holder: Holder): Promise<Db> {
  if (isPostgresUrl(url)) {
    const [{ PrismaPg }, pg] = await Promise.all([
      import("@prisma/adapter-pg"),
      import("./generated/postgresql/client.ts"),
    ]);
    const client = new pg.PrismaClient({
      adapter: new PrismaPg({ connectionString: url, max: 10 }),
      transactionOptions: TRANSACTION_OPTIONS,
    });
    return client as unknown as Db;
  }
  const file = url.replace(/^file:/, "");
  const adapter = new SqliteAdapter({ url: `file:${path.resolve(file)}` });
  holder.sqlite = adapter;
  const client = new PrismaClient({ adapter, transactionOptions: TRANSACTION_OPTIONS });
  // WAL lets readers proceed while a reply is being written; busy_timeout rides out a briefly locked file.
  // synchronous=NORMAL is WAL's usual partner: a commit survives the process dying (even SIGKILL) and the file never
  // corrupts; only an operating-system crash or power cut can undo the last commits. It saves an fsync per write,
  // about 1–3 ms on every turn.
  await client.$queryRawUnsafe("PRAGMA busy_timeout = 5000");
  await client.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await client.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
  await client.$executeRawUnsafe("PRAGMA foreign_keys = ON");
  return client;
}

const holder = globalThis as unknown as { __hintlineDb?: Holder };

export function getDb(): Promise<Db> {
  const url = databaseUrl();
  if (!holder.__hintlineDb || holder.__hintlineDb.url !== url) {
    const entry = { url } as Holder;
    entry.db = createDb(url, entry);
    holder.__hintlineDb = entry;
  }
  return holder.__hintlineDb.db;
}

/**
 * The direct SQLite queries, when they may run right now (see lib/db/sqlite-direct.ts): on SQLite, after `getDb()`
 * resolved, and while no Prisma transaction is open. Call it right before the query, with no await in between.
 */
export function sqliteDirect(): SqliteDirect | undefined {
  return directQueriesOn(holder.__hintlineDb?.sqlite?.connection);
}

export async function disconnectDb(): Promise<void> {
  const current = holder.__hintlineDb;
  holder.__hintlineDb = undefined;
  if (current) await (await current.db).$disconnect();
}

export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

/**
 * Runs `fn` in a transaction that holds the lock named `key` until it ends, so that a count checked in it still holds
 * when it writes ("at most N", "no duplicate"): concurrent requests on PostgreSQL all passed such checks before.
 * PostgreSQL: a transaction-scoped advisory lock on the key's hash (every instance sees it). SQLite: Prisma's adapter
 * already runs one transaction at a time per process, and the write lock covers other processes.
 */
export async function lockedTransaction<T>(key: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  const postgres = isPostgresUrl(databaseUrl());
  return db.$transaction(async (tx) => {
    if (postgres) await tx.$queryRawUnsafe(`SELECT pg_advisory_xact_lock(hashtext($1))::text AS locked`, key);
    return fn(tx);
  }, LONG_TRANSACTION);
}
