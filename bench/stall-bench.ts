// How long one heavy request stalls everyone else (`npm run bench -- --only=stall`): a real `next start` on a fresh
// SQLite database (or, with BENCH_DATABASE_URL=postgresql://…, on that PostgreSQL database), one client uploading
// knowledge files of awkward shapes while another polls a cheap route (GET /api/model) back to back. Prints, per
// upload: how long it took, the longest any poll waited meanwhile, and how much the database grew. Asserts nothing.
//   BENCH_STALL_TIMEOUT_S (120): an upload still running after this is reported as such and the run stops there.
import fs from "node:fs";
import { startApp, stopAll } from "./servers.ts";

const TIMEOUT_MS = Number(process.env.BENCH_STALL_TIMEOUT_S ?? 120) * 1000;
const MiB = 1024 * 1024;

function csvOf(bytes: number): string {
  const rows = ["id,name,city,amount"];
  let size = rows[0]!.length;
  for (let i = 1; size < bytes; i++) {
    const row = `${i},customer ${i % 977},${["Berlin", "Lagos", "Lima", "Osaka"][i % 4]},${(i * 37) % 10_000}`;
    rows.push(row);
    size += row.length + 1;
  }
  return rows.join("\n");
}

const UPLOADS: Array<[string, string]> = [
  ["50 KB of newlines", "\n".repeat(50_000)],
  ["1 MB CSV (39k lines)", csvOf(1_000_000)],
  ["1 MiB of one long line", "word ".repeat(MiB / 5)],
  ["1 MiB of newlines", "\n".repeat(MiB)],
];

async function databaseBytes(url: string): Promise<number> {
  if (url.startsWith("file:")) {
    const file = url.slice(5);
    return [file, `${file}-wal`].reduce((sum, f) => sum + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ size: string }>("SELECT pg_database_size(current_database()) AS size")).rows[0]!.size);
  } finally {
    await client.end();
  }
}

/** Polls `url` back to back while `work` runs; the longest single wait (ms) and the number of polls. */
async function longestWait(url: string, work: Promise<unknown>): Promise<{ longest: number; polls: number }> {
  let done = false;
  void work.finally(() => (done = true));
  let longest = 0;
  let polls = 0;
  while (!done) {
    const start = performance.now();
    await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) })
      .then((r) => r.arrayBuffer())
      .catch(() => undefined);
    longest = Math.max(longest, performance.now() - start);
    polls++;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return { longest, polls };
}

async function main(): Promise<void> {
  const shared = process.env.BENCH_DATABASE_URL;
  const app = await startApp({}, shared ? { databaseUrl: shared } : {});
  const dbUrl = app.databaseUrl;
  console.log(`\n### Stalls (${shared ? "PostgreSQL" : "SQLite"}): one upload at a time, GET /api/model polled meanwhile\n`);
  console.log("| upload | took | longest poll wait | database growth |\n| --- | --- | --- | --- |");
  // Warm-up: the first request of each kind loads code.
  await fetch(`${app.url}/api/workspaces/default/knowledge/warm.txt`, { method: "PUT", headers: { "content-type": "text/plain" }, body: "warm up" });
  // The machine's own noise: the longest wait over 3 s with nothing else running.
  const idle = await longestWait(`${app.url}/api/model`, new Promise((resolve) => setTimeout(resolve, 3_000)));
  console.log(`| nothing (3 s idle, the baseline) | – | ${idle.longest.toFixed(0)} ms | – |`);
  for (const [i, [name, body]] of UPLOADS.entries()) {
    const before = await databaseBytes(dbUrl);
    const start = performance.now();
    const upload = fetch(`${app.url}/api/workspaces/default/knowledge/bench-${i}.txt`, {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    }).then((r) => r.status);
    const { longest } = await longestWait(`${app.url}/api/model`, upload.catch(() => 0));
    const status = await upload.catch(() => "timeout");
    const took = performance.now() - start;
    if (status === "timeout") {
      console.log(`| ${name} | > ${TIMEOUT_MS / 1000} s (still running; stopped) | > ${TIMEOUT_MS / 1000} s | – |`);
      break;
    }
    const growth = (await databaseBytes(dbUrl)) - before;
    console.log(`| ${name} (HTTP ${status}) | ${(took / 1000).toFixed(2)} s | ${longest.toFixed(0)} ms | ${(growth / MiB).toFixed(1)} MiB |`);
  }
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
