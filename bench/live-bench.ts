// Live replies at scale (`npm run bench -- --only=live`): two `next start` instances on one PostgreSQL database and
// the zero-latency OpenAI fake. Prints figures; asserts nothing.
//   - 200 concurrent streaming conversations spread over both instances: errors, TTFT p50/p95, every message stored once;
//   - resume latency (GET …/stream sent → first replayed chunk) on the instance writing the reply and on the other;
//   - the relay's cost: TTFT and throughput with resume support (the relay) vs the stream answered directly, like for
//     like on one instance (sequential, alternating).
// PostgreSQL: BENCH_POSTGRES_URL or TEST_POSTGRES_URL (a server; a fresh database is made), else a throwaway server
// from scripts/pg-temp.sh (fsync off, as the tests use it).
//   BENCH_LIVE_CONVERSATIONS (200) · BENCH_RUNS (30) · BENCH_LIVE_ONLY=relay (only the relay's cost, no PostgreSQL)
// BENCH_LIVE_ONLY=scale (`npm run bench -- --only=scale`): the same concurrent conversations on 1, 2 and 4 instances
// (BENCH_LIVE_INSTANCES="1,2,4") of one PostgreSQL, with what they cost it (bench/pg-traffic.ts); docs/scaling.md.
import { performance } from "node:perf_hooks";
import pg from "pg";
import { newId, prose, routes } from "./http-scenarios.ts";
import { CHANNELS, type Traffic, watchTraffic } from "./pg-traffic.ts";
import { freshDatabase, postgresServer } from "./postgres.ts";
import { type AppServer, startApp, startFake, stopAll } from "./servers.ts";
import { markdownTable, ms, num, summarize } from "./stats.ts";
import { postStream, type StreamResult } from "./ui-stream-client.ts";

const CONVERSATIONS = Number(process.env.BENCH_LIVE_CONVERSATIONS ?? 200);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);

/** GET …/stream: ms from the request to the first replayed chunk (NaN when none came). */
async function resumeLatency(baseUrl: string, conversationId: string): Promise<number> {
  const start = performance.now();
  const response = await fetch(`${baseUrl}/api/conversations/${conversationId}/stream`);
  if (response.status !== 200 || !response.body) return Number.NaN;
  const reader = response.body.getReader();
  const { value } = await reader.read();
  const first = performance.now() - start;
  await reader.cancel();
  return value ? first : Number.NaN;
}

type Row = string[];
const ENV = { OPENAI_API_KEY: "bench", HINTLINE_MODEL: "fake-model", HINTLINE_CONTEXT_WINDOW: "128000" };

/** Two instances on one PostgreSQL: concurrent conversations over both, and resume latency on each. */
async function scaleRows(): Promise<{ rows: Row[]; errors: string[] }> {
  const server = await postgresServer();
  const databaseUrl = await freshDatabase(server.url, "live");
  const fake = await startFake();
  const env = { ...ENV, OPENAI_BASE_URL: fake.url };
  const [a, b] = [await startApp(env, { databaseUrl }), await startApp(env, { databaseUrl })];
  log(`instances ${a.url} and ${b.url} on ${databaseUrl.replace(/:[^:@/]*@/, ":…@")}`);

  await fake.setReply(prose(300));
  const both = [routes(a.url), routes(b.url)];
  await Promise.all(Array.from({ length: 10 }, (_, i) => both[i % 2]!.hintline("Warm up.")));
  const ids = Array.from({ length: CONVERSATIONS }, () => newId("live"));
  const started = performance.now();
  const results: StreamResult[] = await Promise.all(
    ids.map((id, i) => both[i % 2]!.hintline("Tell me about rivers.", id)),
  );
  const wallMs = performance.now() - started;
  const errors = results.flatMap((r) => (r.error ? [r.error] : []));
  const ttft = summarize(results.filter((r) => !r.error).map((r) => r.ttftMs));
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const stored = await db.query<{ conversationId: string; n: string; complete: string }>(
    `SELECT "conversationId", count(*) AS n, count(*) FILTER (WHERE "status" = 'complete') AS complete FROM "Message" WHERE "conversationId" = ANY($1) GROUP BY "conversationId"`,
    [ids],
  );
  const once = stored.rows.filter((r) => Number(r.n) === 2 && Number(r.complete) === 2).length;
  await db.end();

  await fake.setReply(prose(400), 5);
  const local: number[] = [];
  const remote: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const id = newId("resume");
    const writing = routes(a.url).hintline("Write slowly.", id);
    await new Promise((r) => setTimeout(r, 60));
    local.push(await resumeLatency(a.url, id));
    remote.push(await resumeLatency(b.url, id));
    await fetch(`${b.url}/api/conversations/${id}/stop`, { method: "POST" });
    await writing;
  }
  await stopAll();
  server.stop();
  const rows: Row[] = [
    [`${CONVERSATIONS} concurrent conversations over 2 instances: errors`, String(errors.length)],
    ["— TTFT p50 / p95", `${ms(ttft.p50)} / ${ms(ttft.p95)}`],
    ["— all finished (wall)", ms(wallMs)],
    ["— conversations stored with exactly their 2 messages, complete", `${once} of ${CONVERSATIONS}`],
    [
      `Resume latency, same instance, p50 / p95 (n=${RUNS})`,
      `${ms(summarize(local).p50)} / ${ms(summarize(local).p95)}`,
    ],
    [
      `Resume latency, the other instance, p50 / p95 (n=${RUNS})`,
      `${ms(summarize(remote).p50)} / ${ms(summarize(remote).p95)}`,
    ],
  ];
  return { rows, errors };
}

/** The relay's cost, like for like on one instance (SQLite): sequential, alternating on and off. */
async function relayRows(): Promise<Row[]> {
  const fake = await startFake();
  await fake.setReply("Hello from the fake.");
  const env = { ...ENV, OPENAI_BASE_URL: fake.url };
  const relayOn = await startApp(env);
  const relayOff = await startApp({ ...env, HINTLINE_BENCH_NO_RELAY: "1" });
  const post = (url: string) => (text: string) =>
    postStream(`${url}/api/chat`, {
      id: newId("c"),
      message: { id: newId("m"), role: "user", parts: [{ type: "text", text }] },
      timezone: "UTC",
    });
  const pairs = async (text: string) => {
    const on: StreamResult[] = [];
    const off: StreamResult[] = [];
    for (let i = 0; i < RUNS + 5; i++) {
      for (const useRelay of i % 2 === 0 ? [true, false] : [false, true]) {
        const result = await post(useRelay ? relayOn.url : relayOff.url)(text);
        if (i >= 5 && !result.error) (useRelay ? on : off).push(result);
      }
    }
    return { on, off };
  };
  const short = await pairs("Say hello.");
  await fake.setReply(prose(2_500));
  const long = await pairs("Write a long essay.");
  await stopAll();
  const rate = (r: StreamResult) => r.chars / (r.deltaSpanMs / 1000);
  const t = (list: StreamResult[]) => summarize(list.map((r) => r.ttftMs));
  const tp = (list: StreamResult[]) => summarize(list.map(rate));
  const total = (list: StreamResult[]) => summarize(list.map((r) => r.totalMs));
  return [
    [
      `Relay on vs off: TTFT p50 (n=${t(short.on).n})`,
      `${ms(t(short.on).p50)} vs ${ms(t(short.off).p50)} (${num(t(short.on).p50 / t(short.off).p50, 2)}×)`,
    ],
    [
      "Relay on vs off: throughput of a 2,500-word reply, median",
      `${num(tp(long.on).p50, 0)} vs ${num(tp(long.off).p50, 0)} chars/s (${num(tp(long.on).p50 / tp(long.off).p50, 2)}×)`,
    ],
    [
      "Relay on vs off: the whole 2,500-word reply, p50",
      `${ms(total(long.on).p50)} vs ${ms(total(long.off).p50)} (${num(total(long.on).p50 / total(long.off).p50, 2)}×)`,
    ],
  ];
}

const FOLLOW_EVERY = 4;

/** GET …/stream read to its end; true when it ended with the reply's finish. */
async function followToEnd(baseUrl: string, conversationId: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}/api/conversations/${conversationId}/stream`).catch(() => undefined);
  if (!response?.body || response.status !== 200) return false;
  const text = await response.text().catch(() => "");
  return text.includes('"type":"finish"');
}

/** `count` instances on one fresh PostgreSQL database: CONVERSATIONS concurrent replies spread over them, and the traffic. */
async function sweepPoint(serverUrl: string, count: number) {
  const databaseUrl = await freshDatabase(serverUrl, `live_${count}`);
  const fake = await startFake();
  const env = { ...ENV, OPENAI_BASE_URL: fake.url };
  const instances: AppServer[] = [];
  for (let i = 1; i <= count; i++) {
    const url = new URL(databaseUrl);
    url.searchParams.set("application_name", `hintline-${i}`);
    instances.push(await startApp(env, { databaseUrl: url.toString() }));
  }
  await fake.setReply(prose(300));
  const all = instances.map((a) => routes(a.url));
  await Promise.all(Array.from({ length: 10 }, (_, i) => all[i % count]!.hintline("Warm up.")));
  const watch = await watchTraffic(
    databaseUrl,
    instances.map((a) => a.pid),
  );
  const started = performance.now();
  // Every FOLLOW_EVERY-th reply is also followed from the next instance (a second tab there), which makes the writing
  // instance mirror it into hintline_live_chunk.
  const followed: Promise<boolean>[] = [];
  const results = await Promise.all(
    Array.from({ length: CONVERSATIONS }, async (_, i) => {
      const id = newId("scale");
      const reply = all[i % count]!.hintline("Tell me about rivers.", id);
      if (count > 1 && i % FOLLOW_EVERY === 0)
        followed.push(
          new Promise((r) => setTimeout(r, 100)).then(() => followToEnd(instances[(i + 1) % count]!.url, id)),
        );
      return reply;
    }),
  );
  const followedOk = (await Promise.all(followed)).filter(Boolean).length;
  const wallMs = performance.now() - started;
  const traffic = await watch.stop();
  const errors = results.flatMap((r) => (r.error ? [r.error] : []));
  if (errors.length)
    log(
      `instance 1's log, errors and warnings:\n${instances[0]!
        .logs()
        .split("\n")
        .filter((l) => /"level":50/.test(l))
        .slice(0, 5)
        .join("\n")}`,
    );
  await stopAll();
  const ttft = summarize(results.filter((r) => !r.error).map((r) => r.ttftMs));
  const chunksPerReply =
    results.filter((r) => !r.error).reduce((sum, r) => sum + r.deltas, 0) / Math.max(1, CONVERSATIONS - errors.length);
  return { count, wallMs, errors, ttft, traffic, chunksPerReply, followed: followed.length, followedOk };
}

/** The sweep's table: one column per instance count. */
function sweepRows(points: Awaited<ReturnType<typeof sweepPoint>>[]): Row[] {
  const col = (f: (p: (typeof points)[number]) => string) => points.map(f);
  const perSecond = (n: number, ms: number) => num(n / (ms / 1000), 0);
  const notes = (t: Traffic) => Object.values(t.notifications).reduce((s, c) => s + c.count, 0);
  const instanceConnections = (t: Traffic) =>
    Object.entries(t.connections)
      .filter(([app]) => app.startsWith("hintline-"))
      .map(([, n]) => n);
  return [
    ["Errors", ...col((p) => String(p.errors.length))],
    [
      "Replies per second (all finished, wall)",
      ...col((p) => `${perSecond(CONVERSATIONS, p.wallMs)} (${ms(p.wallMs)})`),
    ],
    ["TTFT p50 / p95", ...col((p) => `${ms(p.ttft.p50)} / ${ms(p.ttft.p95)}`)],
    [
      `Replies also followed from another instance (read to the end)`,
      ...col((p) => (p.followed ? `${p.followedOk} of ${p.followed}` : "–")),
    ],
    ["Text chunks per reply (streamed to the client)", ...col((p) => num(p.chunksPerReply, 0))],
    [
      "NOTIFY messages (per second; per reply)",
      ...col(
        (p) =>
          `${num(notes(p.traffic), 0)} (${perSecond(notes(p.traffic), p.wallMs)}/s; ${num(notes(p.traffic) / CONVERSATIONS, 1)})`,
      ),
    ],
    ...CHANNELS.map((c) => [
      `— ${c} (messages, payload bytes)`,
      ...col((p) => `${num(p.traffic.notifications[c]!.count, 0)}, ${num(p.traffic.notifications[c]!.bytes, 0)} B`),
    ]),
    [
      "Connections per instance, most at once (each instance)",
      ...col((p) => instanceConnections(p.traffic).join(" · ") || "–"),
    ],
    [
      "hintline_live_chunk rows written (per second; per reply)",
      ...col((p) => {
        const n = p.traffic.inserted.hintline_live_chunk ?? 0;
        return `${num(n, 0)} (${perSecond(n, p.wallMs)}/s; ${num(n / CONVERSATIONS, 1)})`;
      }),
    ],
    ["Message rows written", ...col((p) => num(p.traffic.inserted.Message ?? 0, 0))],
    [
      "Transactions committed (per second)",
      ...col((p) => `${num(p.traffic.commits, 0)} (${perSecond(p.traffic.commits, p.wallMs)}/s)`),
    ],
    [
      "PostgreSQL CPU (seconds; ms per reply)",
      ...col(
        (p) =>
          `${num(p.traffic.postgresCpuSeconds, 1)} s; ${num((1000 * p.traffic.postgresCpuSeconds) / CONVERSATIONS, 1)} ms`,
      ),
    ],
    ["Instances' CPU (seconds, each)", ...col((p) => p.traffic.instanceCpuSeconds.map((s) => num(s, 1)).join(" · "))],
  ];
}

async function scaleSweep(): Promise<void> {
  const counts = (process.env.BENCH_LIVE_INSTANCES ?? "1,2,4").split(",").map(Number);
  const server = await postgresServer();
  const points = [];
  for (const count of counts) {
    log(`${count} instance(s): ${CONVERSATIONS} concurrent conversations`);
    points.push(await sweepPoint(server.url, count));
  }
  server.stop();
  const load = (await import("node:os"))
    .loadavg()
    .map((l) => num(l, 1))
    .join(" ");
  console.log(`
Instances on one PostgreSQL, ${CONVERSATIONS} concurrent 300-word replies, zero-latency OpenAI fake (${new Date().toISOString().slice(0, 10)}, load average ${load})
`);
  console.log(
    markdownTable(
      ["Measure", ...points.map((p) => `${p.count} instance${p.count === 1 ? "" : "s"}`)],
      sweepRows(points),
    ),
  );
  const errors = points.flatMap((p) => p.errors);
  if (errors.length)
    console.log(`
First errors: ${errors.slice(0, 3).join(" | ")}`);
}

async function main(): Promise<void> {
  if (process.env.BENCH_LIVE_ONLY === "scale") return scaleSweep();
  const scale = process.env.BENCH_LIVE_ONLY === "relay" ? { rows: [], errors: [] } : await scaleRows();
  const relay = await relayRows();
  console.log(`\nLive replies, zero-latency OpenAI fake (${new Date().toISOString().slice(0, 10)})\n`);
  console.log(markdownTable(["Measure", "Figure"], [...scale.rows, ...relay]));
  if (scale.errors.length) console.log(`\nFirst errors: ${scale.errors.slice(0, 3).join(" | ")}`);
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
