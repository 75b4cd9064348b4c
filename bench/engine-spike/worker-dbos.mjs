// DBOS Transact: a workflow of STEPS steps. Recovery runs the workflow function again; a finished step answers from
// its record. EXECUTOR_ID names the executor; RECOVER_OTHERS=<workflow id> makes this one resume another's workflow
// RECOVER_AFTER_MS after it started (DBOS itself never does: without Conductor it has no liveness of executors).
import { performance } from "node:perf_hooks";
import { engineImport, logClient, mem, runStep, STEPS, startLine } from "./common.mjs";

const url = process.env.DB_URL;
const before = mem();
const t0 = performance.now();
const { DBOS } = await engineImport("dbos/node_modules/@dbos-inc/dbos-sdk/dist/src/index.js");
const importMs = performance.now() - t0;
const afterImport = mem();
const log = await logClient(url);
const run = DBOS.registerWorkflow(
  async (runId) => {
    for (let step = 1; step <= STEPS; step++)
      await DBOS.runStep(() => runStep(log, runId, step), { name: `step${step}` });
  },
  { name: "run" },
);
DBOS.setConfig({
  name: "spike",
  systemDatabaseUrl: url,
  executorID: process.env.EXECUTOR_ID ?? "local",
  applicationVersion: "v1",
  logLevel: "error",
});
const t1 = performance.now();
await DBOS.launch();
startLine("dbos", { importMs, startMs: performance.now() - t1, before, afterImport, afterStart: mem() });
if (process.env.ENQUEUE) await DBOS.startWorkflow(run, { workflowID: process.env.ENQUEUE })(process.env.ENQUEUE);
if (process.env.EXIT_AFTER_START) {
  await DBOS.shutdown();
  await log.end();
  process.exit(0);
}
if (process.env.RECOVER_OTHERS) {
  setTimeout(() => void DBOS.resumeWorkflow(process.env.RECOVER_OTHERS), Number(process.env.RECOVER_AFTER_MS ?? 0));
}
setInterval(() => {}, 1 << 30);
