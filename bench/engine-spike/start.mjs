// Start-up and memory: each worker on a fresh database (cold: the engine installs its schema), then 5 warm starts;
// then the connections each engine holds open while idle (its worker's own log client not counted).
import { execFileSync, spawn } from "node:child_process";
import { sleep, withDatabase } from "./common.mjs";

const median = (values) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];
const workers = {
  pg: "worker-pg.mjs",
  dbos: "worker-dbos.mjs",
  "pg-boss": "worker-pgboss.mjs",
  graphile: "worker-graphile.mjs",
};
const path = (file) => new URL(file, import.meta.url).pathname;
for (const [engine, file] of Object.entries(workers)) {
  await withDatabase(`spike_start_${engine.replace("-", "")}_${process.pid}`, async (url, admin) => {
    const once = () => {
      const out = execFileSync(process.execPath, [path(file)], {
        env: { ...process.env, DB_URL: url, EXIT_AFTER_START: "1" },
        stdio: ["ignore", "pipe", "ignore"],
      });
      return JSON.parse(
        String(out)
          .split("\n")
          .find((line) => line.startsWith('{"engine"')),
      );
    };
    const cold = once();
    const warm = Array.from({ length: 5 }, once);
    const figures = {
      engine,
      coldStartMs: Math.round(cold.startMs),
      importMs: Math.round(median(warm.map((w) => w.importMs))),
      warmStartMs: Math.round(median(warm.map((w) => w.startMs))),
      rssAddedMiB: +median(warm.map((w) => w.afterStart.rssMiB - w.before.rssMiB)).toFixed(1),
      heapAddedMiB: +median(warm.map((w) => w.afterStart.heapMiB - w.before.heapMiB)).toFixed(1),
    };
    if (engine !== "pg") {
      const child = spawn(process.execPath, [path(file)], { env: { ...process.env, DB_URL: url }, stdio: "ignore" });
      await sleep(4000);
      const database = new URL(url).pathname.slice(1);
      const { rows } = await admin.query("SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1", [
        database,
      ]);
      figures.idleConnections = rows[0].n - 1;
      child.kill("SIGKILL");
    }
    console.log(JSON.stringify(figures));
  });
}
