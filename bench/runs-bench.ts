// `npm run bench -- --only=runs`: how soon a reply goes on after its server is SIGKILLed mid-reply. SQLite, each
// round: a reply streams a long text (the OpenAI fake, 20 ms a chunk), the server is killed once text flows, started
// again on the same file (`npm start`'s server, migrations included), and a follower (`GET …/stream`) waits for the
// first new text. Printed: kill → server ready, ready → streaming again, kill → streaming again (goal ≤ 5 s after the
// restart). PostgreSQL (bench/postgres.ts's server), each round: the reply streams on instance A, A is killed, and a
// follower on instance B waits for the text of B's take-over: kill → streaming again (goal ≤ HINTLINE_RUN_LEASE_MS + 5 s,
// the default 15 s lease). Nothing is asserted.
import { freshDatabase, postgresServer } from "./postgres.ts";
import { type AppServer, type Fake, startApp, startFake, stopAll } from "./servers.ts";
import { median } from "./stats.ts";

const ROUNDS = 5;
const PG_ROUNDS = 3;
const LONG = Array.from({ length: 2_000 }, (_, i) => `word${i}`).join(" ");
const log = (line: string) => console.log(`[runs] ${line}`);

/** Reads a UI message stream until a text delta arrives; resolves with when it did. */
async function firstTextDelta(response: Response): Promise<number> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the stream ended before any text");
    buffered += value;
    if (buffered.includes('"type":"text-delta"')) {
      const at = performance.now();
      await reader.cancel();
      return at;
    }
  }
}

/** POST /api/chat for a new conversation `id`; resolves once its text flows. */
async function replyStreaming(app: AppServer, id: string): Promise<void> {
  const response = await fetch(`${app.url}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ id, message: { id: `m-${id}`, role: "user", parts: [{ type: "text", text: "go" }] } }),
  });
  await firstTextDelta(response);
  // Let a checkpoint hold some of it (at most a second of a reply is lost).
  await new Promise((r) => setTimeout(r, 1_200));
}

async function sqliteRounds(env: Record<string, string>): Promise<void> {
  let app: AppServer = await startApp(env);
  const rows: Array<{ ready: number; streaming: number; total: number }> = [];
  for (let round = 0; round < ROUNDS; round++) {
    const id = `resume-${round}`;
    await replyStreaming(app, id);
    const killedAt = performance.now();
    process.kill(app.pid, "SIGKILL");
    app = await startApp(env, { databaseUrl: app.databaseUrl });
    const readyAt = performance.now();
    const follower = await fetch(`${app.url}/api/conversations/${id}/stream`);
    if (follower.status !== 200) throw new Error(`no live reply to follow after the restart (HTTP ${follower.status})`);
    const streamingAt = await firstTextDelta(follower);
    rows.push({ ready: readyAt - killedAt, streaming: streamingAt - readyAt, total: streamingAt - killedAt });
    // Stopped, so that the next restart resumes only the next round's reply.
    await fetch(`${app.url}/api/conversations/${id}/stop`, { method: "POST" });
    log(
      `round ${round + 1}: kill → ready ${(readyAt - killedAt).toFixed(0)} ms, ready → streaming ${(streamingAt - readyAt).toFixed(0)} ms`,
    );
  }
  const med = (pick: (r: (typeof rows)[number]) => number) => median(rows.map(pick)).toFixed(0);
  log(`median of ${ROUNDS}: kill → ready ${med((r) => r.ready)} ms; ready → streaming again ${med((r) => r.streaming)} ms
      (goal ≤ 5,000 ms after the restart); kill → streaming again ${med((r) => r.total)} ms`);
}

/** Two instances on one PostgreSQL database: A killed mid-reply each round, B taking the reply over. */
async function postgresRounds(env: Record<string, string>): Promise<void> {
  const server = await postgresServer();
  try {
    const databaseUrl = await freshDatabase(server.url, "runs");
    const b = await startApp(env, { databaseUrl });
    const totals: number[] = [];
    for (let round = 0; round < PG_ROUNDS; round++) {
      const a = await startApp(env, { databaseUrl });
      const id = `take-over-${round}`;
      await replyStreaming(a, id);
      const killedAt = performance.now();
      process.kill(a.pid, "SIGKILL");
      // B's follower replays what A wrote, then goes on with the take-over: its first text after the replay is new.
      const follower = await fetch(`${b.url}/api/conversations/${id}/stream`);
      if (follower.status !== 200) throw new Error(`no live reply to follow on B (HTTP ${follower.status})`);
      const streamingAt = await firstTextDelta(follower);
      totals.push(streamingAt - killedAt);
      await fetch(`${b.url}/api/conversations/${id}/stop`, { method: "POST" });
      log(`PostgreSQL round ${round + 1}: kill of A → streaming again on B ${(streamingAt - killedAt).toFixed(0)} ms`);
    }
    log(`PostgreSQL, median of ${PG_ROUNDS}: kill → streaming again on the other instance ${median(totals).toFixed(0)} ms
      (goal ≤ HINTLINE_RUN_LEASE_MS ${env.HINTLINE_RUN_LEASE_MS ?? "15,000"} + 5,000 ms)`);
  } finally {
    server.stop();
  }
}

async function main(): Promise<void> {
  const fake: Fake = await startFake();
  await fake.setReply(LONG, 20);
  const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "bench", HINTLINE_MODEL: "fake-model" };
  if (process.env.BENCH_RUNS_ONLY !== "postgres") await sqliteRounds(env);
  if (process.env.BENCH_RUNS_ONLY !== "sqlite") await postgresRounds(env);
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
