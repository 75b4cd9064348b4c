// One Prisma client per process, on SQLite (default) or PostgreSQL, chosen by DATABASE_URL.
// Both generated clients share the same models, so the SQLite client's type describes either.
import path from "node:path";
import { PrismaBetterSqlite3 } from "@prisma/adapter-better-sqlite3";
import { PrismaClient } from "./generated/sqlite/client.ts";

export type Db = PrismaClient;

export const DEFAULT_DATABASE_URL = "file:./data/hintline.db";

export function databaseUrl(): string {
  return process.env.DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function isPostgresUrl(url: string): boolean {
  return /^postgres(ql)?:\/\//.test(url);
}

async function createDb(url: string): Promise<Db> {
  if (isPostgresUrl(url)) {
    const [{ PrismaPg }, pg] = await Promise.all([
      import("@prisma/adapter-pg"),
      import("./generated/postgresql/client.ts"),
    ]);
    const client = new pg.PrismaClient({ adapter: new PrismaPg({ connectionString: url, max: 10 }) });
    return client as unknown as Db;
  }
  const file = url.replace(/^file:/, "");
  const adapter = new PrismaBetterSqlite3({ url: `file:${path.resolve(file)}` });
  const client = new PrismaClient({ adapter });
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

const holder = globalThis as unknown as { __hintlineDb?: { url: string; db: Promise<Db> } };

export function getDb(): Promise<Db> {
  const url = databaseUrl();
  if (!holder.__hintlineDb || holder.__hintlineDb.url !== url) {
    holder.__hintlineDb = { url, db: createDb(url) };
  }
  return holder.__hintlineDb.db;
}

export async function disconnectDb(): Promise<void> {
  const current = holder.__hintlineDb;
  holder.__hintlineDb = undefined;
  if (current) await (await current.db).$disconnect();
}
