// pg-boss in the chosen shape (MODE=instance): from send() to the handler starting on the sender's own queue.
import { spawnSync } from "node:child_process";
import { withDatabase } from "./common.mjs";

await withDatabase(`spike_latency_${process.pid}`, async (url) => {
  const { stdout } = spawnSync(process.execPath, [new URL("worker-pgboss.mjs", import.meta.url).pathname], {
    env: { ...process.env, DB_URL: url, MODE: "instance", EXECUTOR_ID: "a", LATENCY: "1", STEP_MS: "50" },
    timeout: 8000,
  });
  const ms = String(stdout)
    .split("\n")
    .filter((line) => line.includes("sendToStartMs"))
    .map((line) => JSON.parse(line).sendToStartMs);
  console.log(JSON.stringify({ sendToStartMs: ms, median: [...ms].sort((x, y) => x - y)[Math.floor(ms.length / 2)] }));
});
