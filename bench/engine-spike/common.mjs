// Shared by the engine spike's workers (docs/architecture.md, "Durable runs: the engine"). The engines are installed
// outside the repository, each in its own directory under SPIKE_DIR (default /tmp/runs-spike): dbos/, pgboss/,
// graphile/, pglite/. A run is STEPS steps of STEP_MS each, logged to spike_log; a job-queue worker keeps its own
// checkpoint (spike_checkpoint: the last finished step), as Hintline's reply row does.
import { pathToFileURL } from "node:url";
import pg from "pg";

export const SPIKE_DIR = process.env.SPIKE_DIR ?? "/tmp/runs-spike";
export const ADMIN_URL = process.env.SPIKE_ADMIN_URL ?? "postgresql://postgres:postgres@127.0.0.1:55440/postgres";
export const STEPS = 4;
export const STEP_MS = Number(process.env.STEP_MS ?? 1500);

/** Imports a file of an engine installed under SPIKE_DIR. */
export const engineImport = (path) => import(pathToFileURL(`${SPIKE_DIR}/${path}`).href);

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export const databaseUrl = (name) => ADMIN_URL.replace(/\/[^/]*$/, `/${name}`);

/** Creates a fresh database, hands it to `use`, then drops it. */
export async function withDatabase(name, use) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  try {
    return await use(databaseUrl(name), admin);
  } finally {
    await sleep(300);
    await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
    await admin.end();
  }
}

export async function logClient(url) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`CREATE TABLE IF NOT EXISTS spike_log (run_id text, step int, pid int, event text,
                        at timestamptz DEFAULT clock_timestamp());
                      CREATE TABLE IF NOT EXISTS spike_checkpoint (run_id text PRIMARY KEY, done int NOT NULL)`);
  return client;
}

/** One step: logged as it starts and ends. */
export async function runStep(log, runId, step) {
  await log.query("INSERT INTO spike_log (run_id, step, pid, event) VALUES ($1, $2, $3, 'start')", [
    runId,
    step,
    process.pid,
  ]);
  await sleep(STEP_MS);
  await log.query("INSERT INTO spike_log (run_id, step, pid, event) VALUES ($1, $2, $3, 'end')", [
    runId,
    step,
    process.pid,
  ]);
}

/** A job's handler: the run continues after its last finished step, and stores each step it finishes. */
export async function runFromCheckpoint(log, runId) {
  const { rows } = await log.query("SELECT done FROM spike_checkpoint WHERE run_id = $1", [runId]);
  for (let step = (rows[0]?.done ?? 0) + 1; step <= STEPS; step++) {
    await runStep(log, runId, step);
    await log.query(
      "INSERT INTO spike_checkpoint VALUES ($1, $2) ON CONFLICT (run_id) DO UPDATE SET done = EXCLUDED.done",
      [runId, step],
    );
  }
}

export const mem = () => {
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMiB: +(rss / 2 ** 20).toFixed(1), heapMiB: +(heapUsed / 2 ** 20).toFixed(1) };
};

/** Each worker prints this line once it has started. */
export const startLine = (engine, figures) => console.log(JSON.stringify({ engine, ...figures }));
