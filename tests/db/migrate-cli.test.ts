// scripts/db-migrate.mjs deploy, the command `npm start` runs before the server and the tests run for every database:
// it migrates a new database and exits as soon as it has said so. On PostgreSQL, the connection pool kept it alive
// for the pool's idle timeout (10 s) after the work was done: ten seconds added to every start.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, inject, it } from "vitest";
import { createPostgresDatabase } from "../support/db-global-setup.ts";

const root = path.resolve(import.meta.dirname, "../..");

async function freshDatabase(): Promise<string> {
  if (inject("databaseKind") === "sqlite")
    return `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-cli-")), "app.db")}`;
  return createPostgresDatabase(process.env.TEST_POSTGRES_URL ?? "", `hintline_migrate_cli_${process.pid}`);
}

/** Runs the CLI; resolves with its exit code, its output and how long after saying it was done it exited. */
function deploy(url: string): Promise<{ code: number | null; output: string; lingeredMs: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["scripts/db-migrate.mjs", "deploy"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: url },
    });
    let output = "";
    let saidAt = 0;
    child.stdout.on("data", (d) => {
      output += d;
      if (/database (migrated|up to date)/.test(output)) saidAt ||= Date.now();
    });
    child.stderr.on("data", (d) => (output += d));
    child.on("exit", (code) => resolve({ code, output, lingeredMs: saidAt ? Date.now() - saidAt : Number.NaN }));
  });
}

it("migrates a new database, then finds it up to date, and exits each time as soon as it is done", async () => {
  const url = await freshDatabase();
  const first = await deploy(url);
  expect(first.code, first.output).toBe(0);
  expect(first.output).toMatch(/^database migrated: \d+_init, /);
  // Far under the pool's 10 s idle timeout, with room for a loaded machine.
  expect(first.lingeredMs).toBeLessThan(5000);
  const again = await deploy(url);
  expect(again.code, again.output).toBe(0);
  expect(again.output.trim()).toBe("database up to date");
  expect(again.lingeredMs).toBeLessThan(5000);
}, 60_000);
