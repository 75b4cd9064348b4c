// A PostgreSQL server for the benchmarks: BENCH_POSTGRES_URL or TEST_POSTGRES_URL (a server; a fresh database is made
// on it), else a throwaway one from scripts/pg-temp.sh (fsync off, as the tests use it).
import { execFileSync } from "node:child_process";
import path from "node:path";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");

export async function postgresServer(): Promise<{ url: string; stop: () => void }> {
  const given = process.env.BENCH_POSTGRES_URL || process.env.TEST_POSTGRES_URL;
  if (given) return { url: given, stop: () => {} };
  const port = String(55_600 + (process.pid % 300));
  const url = execFileSync("bash", [path.join(root, "scripts/pg-temp.sh"), "start", port], { encoding: "utf8" })
    .trim()
    .split("\n")
    .at(-1)!;
  return {
    url,
    stop: () => execFileSync("bash", [path.join(root, "scripts/pg-temp.sh"), "stop", port], { stdio: "ignore" }),
  };
}

export async function freshDatabase(serverUrl: string, label: string): Promise<string> {
  const name = `hintline_bench_${label}_${process.pid}`;
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}
