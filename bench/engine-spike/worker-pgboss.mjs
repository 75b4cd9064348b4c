// pg-boss: one job per run; the handler continues from the run's own checkpoint. MODE=default keeps pg-boss's
// defaults (expiry 15 min, supervision every 60 s); MODE=shared is one queue with heartbeatSeconds=HEARTBEAT_S;
// MODE=instance is the shape docs/architecture.md chooses: each instance works its own queue runs.<EXECUTOR_ID> (the
// instance that sends a run claims it at once) and the shared runs-recover queue, into which a run whose instance
// stopped heartbeating fails (retryLimit 0, deadLetter). LATENCY=1 times send() → handler on the own queue.
import { performance } from "node:perf_hooks";
import { engineImport, logClient, mem, runFromCheckpoint, sleep, startLine } from "./common.mjs";

const url = process.env.DB_URL;
const mode = process.env.MODE ?? "default";
const heartbeatSeconds = Number(process.env.HEARTBEAT_S ?? 10);
const before = mem();
const t0 = performance.now();
const { PgBoss } = await engineImport("pgboss/node_modules/pg-boss/dist/index.js");
const importMs = performance.now() - t0;
const afterImport = mem();
const log = await logClient(url);
const fast = mode === "default" ? {} : { superviseIntervalSeconds: 1, monitorIntervalSeconds: 1 };
const boss = new PgBoss({ connectionString: url, useListenNotify: mode === "instance", ...fast });
boss.on("error", (error) => console.error("pg-boss:", error.message));
const t1 = performance.now();
await boss.start();
const queue = mode === "instance" ? `runs.${process.env.EXECUTOR_ID}` : "run";
if (mode === "instance") {
  await boss.createQueue("runs-recover", { heartbeatSeconds, retryLimit: 3 });
  await boss.createQueue(queue, { heartbeatSeconds, retryLimit: 0, deadLetter: "runs-recover", notify: true });
} else {
  await boss.createQueue(queue, mode === "shared" ? { heartbeatSeconds, retryLimit: 5 } : {});
}
startLine("pg-boss", { importMs, startMs: performance.now() - t1, before, afterImport, afterStart: mem() });
if (process.env.EXIT_AFTER_START) {
  await boss.stop({ graceful: false });
  await log.end();
  process.exit(0);
}
const handler = async ([job]) => {
  if (job.data.sentAt) console.log(JSON.stringify({ sendToStartMs: Date.now() - job.data.sentAt }));
  await runFromCheckpoint(log, job.data.runId);
};
const polling = { pollingIntervalSeconds: mode === "default" ? 2 : 0.5, localConcurrency: 20 };
await boss.work(queue, polling, handler);
// Nothing NOTIFYs a dead-lettered job: the recovery queue is polled every second.
if (mode === "instance")
  await boss.work("runs-recover", { pollingIntervalSeconds: 1, notifyPollingIntervalSeconds: 1 }, handler);
if (process.env.LATENCY) {
  for (let i = 0; i < 8; i++) {
    await boss.send(queue, { runId: `latency-${i}`, sentAt: Date.now() });
    await sleep(300);
  }
}
if (process.env.ENQUEUE) await boss.send(queue, { runId: process.env.ENQUEUE });
