// graphile-worker: one job per run; the task continues from the run's own checkpoint. graphile-worker has no
// heartbeat: a dead worker's lock lasts 4 hours. FORCE_UNLOCK_AFTER_MS makes this worker release every locked job
// that long after it started (what Hintline would have to do itself, knowing by its own lease that the owner died).
import { performance } from "node:perf_hooks";
import { engineImport, logClient, mem, runFromCheckpoint, startLine } from "./common.mjs";

const url = process.env.DB_URL;
const before = mem();
const t0 = performance.now();
const { run, makeWorkerUtils } = await engineImport("graphile/node_modules/graphile-worker/dist/index.js");
const importMs = performance.now() - t0;
const afterImport = mem();
const log = await logClient(url);
const t1 = performance.now();
const runner = await run({
  connectionString: url,
  concurrency: 4,
  pollInterval: 500,
  taskList: { run: async ({ runId }) => runFromCheckpoint(log, runId) },
});
startLine("graphile-worker", { importMs, startMs: performance.now() - t1, before, afterImport, afterStart: mem() });
if (process.env.EXIT_AFTER_START) {
  await runner.stop();
  await log.end();
  process.exit(0);
}
if (process.env.ENQUEUE) await runner.addJob("run", { runId: process.env.ENQUEUE });
if (process.env.FORCE_UNLOCK_AFTER_MS) {
  setTimeout(async () => {
    const utils = await makeWorkerUtils({ connectionString: url });
    const { rows } = await log.query(
      "SELECT DISTINCT locked_by FROM graphile_worker._private_jobs WHERE locked_by IS NOT NULL",
    );
    await utils.forceUnlockWorkers(rows.map((row) => row.locked_by));
    await utils.release();
  }, Number(process.env.FORCE_UNLOCK_AFTER_MS));
}
