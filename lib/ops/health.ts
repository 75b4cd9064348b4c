// GET /api/health: whether this instance can serve — its database answers, every migration it was built with is
// applied, it is not shutting down — and whether a model provider is configured (never asked: a health check must
// not spend tokens or depend on the provider being up).
import fs from "node:fs";
import path from "node:path";
import { configuredProviders } from "../ai/providers/choice.ts";
import { isDraining } from "../chat/draining.ts";
import { databaseUrl, isPostgresUrl } from "../db/client.ts";
import { appliedMigrations, pingDatabase } from "../db/health.ts";
import { log } from "../log/logger.ts";

/** A database that does not answer within this is down, as far as a load balancer is concerned. */
const DATABASE_TIMEOUT_MS = 3_000;

export type Health = {
  status: "ok" | "unavailable";
  database: "ok" | "unreachable";
  migrations: "ok" | "pending" | "unknown";
  provider: "configured" | "demo";
  /** What is down, in words, when status is not ok. */
  problems?: string[];
  pendingMigrations?: string[];
  draining?: true;
};

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The migrations this build ships for its database's provider. */
function shippedMigrations(): string[] {
  const dir = path.join(process.cwd(), "prisma/migrations", isPostgresUrl(databaseUrl()) ? "postgresql" : "sqlite");
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
  } catch (error) {
    log().warn({ err: error }, "health: the migrations folder could not be read");
    return [];
  }
}

export async function health(): Promise<Health> {
  const provider = configuredProviders().length === 0 ? "demo" : "configured";
  const problems: string[] = [];
  let database: Health["database"] = "ok";
  let migrations: Health["migrations"] = "unknown";
  let pending: string[] = [];
  try {
    await withTimeout(pingDatabase(), DATABASE_TIMEOUT_MS);
  } catch (error) {
    database = "unreachable";
    problems.push("the database is unreachable");
    log().warn({ err: error }, "health: the database is unreachable");
  }
  if (database === "ok") {
    // A database without Prisma's table has had no migration applied.
    const applied = await withTimeout(appliedMigrations(), DATABASE_TIMEOUT_MS).catch((error: unknown) => {
      log().warn({ err: error }, "health: the applied migrations could not be read");
      return new Set<string>();
    });
    pending = shippedMigrations().filter((name) => !applied.has(name));
    migrations = pending.length ? "pending" : "ok";
    if (pending.length)
      problems.push(`${pending.length} migration(s) pending: run \`npm run db:migrate -- deploy\` (npm start does it)`);
  }
  if (isDraining()) problems.push("the server is shutting down");
  return {
    status: problems.length ? "unavailable" : "ok",
    database,
    migrations,
    provider,
    ...(problems.length ? { problems } : {}),
    ...(pending.length ? { pendingMigrations: pending } : {}),
    ...(isDraining() ? { draining: true as const } : {}),
  };
}
