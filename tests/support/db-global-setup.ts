// Gives the persistence tests a fresh, migrated database: a new SQLite file, or a new database on the PostgreSQL
// server named by TEST_POSTGRES_URL. The URL reaches the tests as the `databaseUrl` value.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    databaseKind: "sqlite" | "postgres";
    databaseUrl: string;
  }
}

function runMigrations(url: string): void {
  execFileSync(process.execPath, ["scripts/db-migrate.mjs", "deploy"], {
    env: { ...process.env, DATABASE_URL: url },
    stdio: "pipe",
  });
}

let sqliteTemplate: string | undefined;

/**
 * Migrates the database at `url`. A SQLite file that does not exist yet is a copy of one migrated once per process (a
 * fresh database migrated is the same file; the API tests make hundreds, each a Node.js process otherwise); any other
 * database, an existing file included, is migrated by scripts/db-migrate.mjs.
 */
export function migrate(url: string): void {
  const file = url.startsWith("file:") ? url.slice("file:".length) : undefined;
  if (!file || fs.existsSync(file)) {
    runMigrations(url);
    return;
  }
  if (!sqliteTemplate) {
    const template = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-template-")), "template.db");
    runMigrations(`file:${template}`);
    // A journal left beside it would hold part of the schema: then every database is migrated for itself.
    if (fs.readdirSync(path.dirname(template)).length !== 1) {
      runMigrations(url);
      return;
    }
    sqliteTemplate = template;
  }
  fs.copyFileSync(sqliteTemplate, file);
}

export async function createPostgresDatabase(serverUrl: string, name: string): Promise<string> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  await client.query(`CREATE DATABASE "${name}"`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export default async function setup(project: TestProject) {
  const kind = project.config.provide?.databaseKind ?? "sqlite";
  let url: string;
  if (kind === "postgres") {
    const server = process.env.TEST_POSTGRES_URL;
    if (!server)
      throw new Error("TEST_POSTGRES_URL is not set: start one with scripts/pg-temp.sh start (npm test does)");
    url = await createPostgresDatabase(server, `hintline_test_${process.pid}`);
  } else {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-db-"));
    url = `file:${path.join(dir, "test.db")}`;
  }
  migrate(url);
  project.provide("databaseUrl", url);
}
