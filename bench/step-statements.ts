// What one further step of a reply costs PostgreSQL, counted from its statement log: the app (as `npm start` serves it)
// on a throwaway PostgreSQL server (scripts/pg-temp.sh, port BENCH_STEP_PG_PORT, default 55461) whose bench database
// logs every statement, and the OpenAI fake scripted to make replies of 1 and of 1 + N steps (each step a call of a
// tool no one has, so the tool itself reads and writes nothing; the last step answers in text). The difference,
// divided by N, is what a further step costs: its reads (SELECT) and its writes (INSERT, UPDATE, DELETE), with the
// statements each was. Nothing is asserted (docs/benchmarks.md has the figures).
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { startApp, startFake, stopAll } from "./servers.ts";

const root = path.resolve(import.meta.dirname, "..");
const port = Number(process.env.BENCH_STEP_PG_PORT) || 55461;
const EXTRA_STEPS = Number(process.env.BENCH_STEP_EXTRA) || 6;
const REPLIES = Number(process.env.BENCH_STEP_REPLIES) || 5;

const server = execFileSync("bash", [path.join(root, "scripts/pg-temp.sh"), "start", String(port)], {
  encoding: "utf8",
}).trim();
const log = `/tmp/hintline-pg-${port}/server.log`;
const database = `hintline_step_${process.pid}`;
const admin = new pg.Client({ connectionString: server });
await admin.connect();
await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
await admin.query(`CREATE DATABASE "${database}"`);
await admin.query(`ALTER DATABASE "${database}" SET log_statement = 'all'`);
await admin.end();
const databaseUrl = Object.assign(new URL(server), { pathname: `/${database}` }).toString();

type Count = { reads: number; writes: number; statements: Map<string, number> };

/** The statements logged after byte `from` of the log, as reads and writes (transaction control left out). */
function countSince(from: number): Count {
  const text = fs.readFileSync(log, "utf8").slice(from);
  const count: Count = { reads: 0, writes: 0, statements: new Map() };
  for (const match of text.matchAll(/LOG:\s+(?:statement|execute [^:]*):\s+([\s\S]*?)(?=\n\S|\n*$)/g)) {
    const sql = match[1]!.replace(/\s+/g, " ").trim();
    const verb = sql.split(" ")[0]!.toUpperCase();
    if (verb === "SELECT" && /^SELECT \d+$/.test(sql)) continue; // a connection's health check
    if (
      ["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE", "SET", "LISTEN", "UNLISTEN", "DEALLOCATE"].includes(verb)
    )
      continue;
    if (verb === "SELECT" || verb === "WITH") count.reads++;
    else if (["INSERT", "UPDATE", "DELETE"].includes(verb)) count.writes++;
    else continue;
    const key = sql.slice(0, 90);
    count.statements.set(key, (count.statements.get(key) ?? 0) + 1);
  }
  return count;
}

const fake = await startFake("openai");
const control = fake.url.replace(/\/v1$/, "/__fake");
const post = (what: string, body: unknown) =>
  fetch(`${control}/${what}`, { method: "POST", body: JSON.stringify(body) });
const app = await startApp(
  { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "bench", HINTLINE_MODEL: "gpt-4o-mini" },
  { databaseUrl },
);

/** One reply of 1 + `extra` steps in a conversation that already had one turn; its statements. */
async function reply(id: string, extra: number): Promise<Count> {
  await post("reset", {});
  await post("default", { text: "Done." });
  await fetch(`${app.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, message: { id: `${id}-0`, role: "user", parts: [{ type: "text", text: "hello" }] } }),
  }).then((r) => r.text());
  for (let i = 0; i < extra; i++)
    await post("enqueue", { kind: "tools", calls: [{ id: `call-${i}`, name: "NoSuchTool", arguments: { i } }] });
  await new Promise((r) => setTimeout(r, 300)); // what the first turn wrote after its response is in the log
  const from = fs.statSync(log).size;
  await fetch(`${app.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, message: { id: `${id}-1`, role: "user", parts: [{ type: "text", text: "go" }] } }),
  }).then((r) => r.text());
  await new Promise((r) => setTimeout(r, 300));
  return countSince(from);
}

try {
  const rows: { one: Count; more: Count }[] = [];
  for (let n = 0; n < REPLIES; n++)
    rows.push({ one: await reply(`bench-one-${n}`, 0), more: await reply(`bench-more-${n}`, EXTRA_STEPS) });
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const perStep = (pick: (c: Count) => number) => median(rows.map((r) => (pick(r.more) - pick(r.one)) / EXTRA_STEPS));
  console.log(
    `Statements per further step of a reply, PostgreSQL (median of ${REPLIES} replies of 1 and of 1 + ${EXTRA_STEPS} steps)`,
  );
  console.log(
    `  reads:  ${perStep((c) => c.reads).toFixed(2)} per step (a reply of one step: ${median(rows.map((r) => r.one.reads))})`,
  );
  console.log(
    `  writes: ${perStep((c) => c.writes).toFixed(2)} per step (a reply of one step: ${median(rows.map((r) => r.one.writes))})`,
  );
  const last = rows.at(-1)!;
  const diff = [...last.more.statements]
    .map(([sql, n]) => [sql, n - (last.one.statements.get(sql) ?? 0)] as const)
    .filter(([, n]) => n > 0);
  console.log("  each further step's statements (the last pair of replies, per step):");
  for (const [sql, n] of diff.sort((a, b) => b[1] - a[1])) console.log(`    ${(n / EXTRA_STEPS).toFixed(2)} × ${sql}`);
} finally {
  await stopAll();
  execFileSync("bash", [path.join(root, "scripts/pg-temp.sh"), "stop", String(port)]);
}
