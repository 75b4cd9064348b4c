// Take-over: `node takeover.mjs <dbos|pg-boss|graphile> <restart|peer|alive> [seconds]`. Worker A starts run-1 and
// is SIGKILLed 0.7 s into step 2; worker B is started right after the kill (restart) or was already running (peer).
// `alive` kills nothing: B, a peer, must never take the run of a live A (give the steps STEP_MS past the heartbeat).
// Prints the time from the kill to B's first step, the starts per step (the cut step runs twice; a finished one must
// not) and whether a step A had finished ran again. SPIKE_A / SPIKE_B: JSON of extra environment for each worker.
import { spawn } from "node:child_process";
import { performance } from "node:perf_hooks";
import pg from "pg";
import { sleep, withDatabase } from "./common.mjs";

const [engine, scenario = "restart", waitSeconds = "90"] = process.argv.slice(2);
const file = { dbos: "worker-dbos.mjs", "pg-boss": "worker-pgboss.mjs", graphile: "worker-graphile.mjs" }[engine];
const extraA = JSON.parse(process.env.SPIKE_A ?? "{}");
const extraB = JSON.parse(process.env.SPIKE_B ?? "{}");
const name = `spike_${engine.replace("-", "")}_${scenario}_${process.pid}`;

await withDatabase(name, async (url) => {
  const start = (label, env) => {
    const child = spawn(process.execPath, [new URL(file, import.meta.url).pathname], {
      env: { ...process.env, DB_URL: url, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (data) => process.stdout.write(`[${label}] ${data}`));
    child.stderr.on("data", (data) => process.stderr.write(`[${label}] ${String(data).slice(0, 300)}\n`));
    return child;
  };
  const a = start("A", { ENQUEUE: "run-1", EXECUTOR_ID: "instance-a", ...extraA });
  await sleep(500);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const logged = async () =>
    (await db.query("SELECT step, pid, event FROM spike_log ORDER BY at").catch(() => ({ rows: [] }))).rows;
  while (!(await logged()).some((row) => row.step === 2 && row.event === "start")) await sleep(50);
  let b = scenario !== "restart" ? start("B", { EXECUTOR_ID: "instance-b", ...extraB }) : undefined;
  await sleep(700);
  if (scenario !== "alive") a.kill("SIGKILL");
  const killedAt = performance.now();
  b ??= start("B", { EXECUTOR_ID: "instance-b", ...extraB });
  let resumedMs;
  while (performance.now() < killedAt + Number(waitSeconds) * 1000) {
    if ((await logged()).some((row) => row.pid === b.pid && row.event === "start")) {
      resumedMs = Math.round(performance.now() - killedAt);
      break;
    }
    await sleep(50);
  }
  while (resumedMs !== undefined && !(await logged()).some((row) => row.step === 4 && row.event === "end"))
    await sleep(100);
  const rows = await logged();
  const startsPerStep = {};
  for (const row of rows) if (row.event === "start") startsPerStep[row.step] = (startsPerStep[row.step] ?? 0) + 1;
  const finishedByA = rows.filter((row) => row.pid === a.pid && row.event === "end").map((row) => row.step);
  const finishedRanAgain = rows.some(
    (row) => row.pid === b.pid && row.event === "start" && finishedByA.includes(row.step),
  );
  const resumed = resumedMs ?? `none within ${waitSeconds} s`;
  console.log(
    JSON.stringify({ engine, scenario, extraA, extraB, resumedMs: resumed, startsPerStep, finishedRanAgain }),
  );
  b.kill("SIGKILL");
  a.kill("SIGKILL");
  await db.end();
});
