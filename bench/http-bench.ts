// End-to-end figures through a real `next start` server and a zero-latency OpenAI-compatible fake: Hintline's
// /api/chat side by side with a bare AI SDK 7 route (app/api/bench/bare) in the same server. Run with `npm run bench`
// (which builds the app first when needed). Prints a markdown table; asserts nothing.
//   BENCH_RUNS (30) · BENCH_WARMUP (5) · BENCH_THROUGHPUT_RUNS (20) · BENCH_CONCURRENCY (50) · BENCH_CPU_PROF_DIR
import os from "node:os";
import {
  burst,
  type ConversationRun,
  conversationRun,
  prose,
  routes,
  type Series,
  sequentialRounds,
} from "./http-scenarios.ts";
import { memoryOf, startApp, startFake, stopAll } from "./servers.ts";
import { type Goal, goalText, markdownTable, meets, mib, ms, msPair, num, summarize } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 5);
const THROUGHPUT_RUNS = Number(process.env.BENCH_THROUGHPUT_RUNS ?? 20);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 50);
const SHORT_REPLY = "Hello from the fake.";
const LONG_WORDS = 2_500;
const BURST_WORDS = 300;
const SIZES = [20, 2_000] as const;
/** Next messages per imported conversation: more samples of an ongoing conversation without more imports. */
const WARM_TURNS = 3;

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const pick = (series: Series, f: (r: Series["results"][number]) => number) => series.results.map(f);

type Row = readonly string[];
function ratioRow(measure: string, value: number, reference: number, show: (v: number) => string, goal?: Goal): Row {
  const ratio = value / reference;
  return [
    measure,
    show(value),
    show(reference),
    `${num(ratio, 2)}×`,
    goal ? goalText(goal) : "–",
    goal ? (meets(ratio, goal) ? "✓" : "✗") : "",
  ];
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = os
    .loadavg()
    .map((l) => num(l, 1))
    .join(" ");
  const fake = await startFake();
  await fake.setReply(SHORT_REPLY);
  const app = await startApp({
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: "bench",
    HINTLINE_MODEL: "fake-model",
    // fake-model is not in the window table (8k fallback): 128k keeps 2,000 short messages under the trigger.
    HINTLINE_CONTEXT_WINDOW: "128000",
    HINTLINE_BENCH_BARE: "1",
  });
  log(`server pid ${app.pid} at ${app.url}; fake at ${fake.url}`);
  const atReady = memoryOf(app.pid);
  const { hintline, bare, bareSameHeaders } = routes(app.url);
  const probe = await bare("ping");
  if (probe.error) throw new Error(`the bare route does not answer (stale build?): ${probe.error}`);

  log(`TTFT: ${WARMUP} warm-up + ${RUNS} runs per route`);
  const [ttftHintline, ttftBare, ttftBareSame] = await sequentialRounds([(t) => hintline(t), bare, bareSameHeaders], {
    runs: RUNS,
    warmup: WARMUP,
    text: "Say hello.",
  });
  const ttft = { first: ttftHintline!, second: ttftBare! };

  log(`throughput: ${THROUGHPUT_RUNS} runs per route of a ${LONG_WORDS}-word reply`);
  await fake.setReply(prose(LONG_WORDS));
  const [longHintline, longBare, longBareSame] = await sequentialRounds([(t) => hintline(t), bare, bareSameHeaders], {
    runs: THROUGHPUT_RUNS,
    warmup: 2,
    text: "Write a long essay.",
  });
  const long = { first: longHintline!, second: longBare! };

  log(
    `conversations of ${SIZES.join(" and ")} messages: 2 warm-up + ${RUNS} runs each (import, then ${1 + WARM_TURNS} turns)`,
  );
  await fake.setReply(SHORT_REPLY);
  const conversations = new Map<number, ConversationRun[]>(SIZES.map((s) => [s, []]));
  for (let i = 0; i < RUNS + 2; i++) {
    for (const size of i % 2 === 0 ? SIZES : [...SIZES].reverse()) {
      const run = await conversationRun(app.url, size, WARM_TURNS);
      if (i >= 2) conversations.get(size)!.push(run);
    }
    if (i % 10 === 9) await fake.setReply(SHORT_REPLY); // drops the fake's recorded 2,000-message bodies
  }

  log(`${CONCURRENCY} concurrent streams per route (${BURST_WORDS}-word replies)`);
  await fake.setReply(prose(BURST_WORDS));
  const beforeBursts = memoryOf(app.pid);
  await burst((t) => hintline(t), { count: 10, text: "Warm up.", pid: app.pid });
  const hintlineBurst = await burst((t) => hintline(t), {
    count: CONCURRENCY,
    text: "Tell me about rivers.",
    pid: app.pid,
  });
  await burst(bare, { count: 10, text: "Warm up.", pid: app.pid });
  const bareBurst = await burst(bare, { count: CONCURRENCY, text: "Tell me about rivers.", pid: app.pid });

  // ---- figures ----
  const t = {
    h: summarize(pick(ttft.first, (r) => r.ttftMs)),
    b: summarize(pick(ttft.second, (r) => r.ttftMs)),
    s: summarize(pick(ttftBareSame!, (r) => r.ttftMs)),
  };
  const rate = (r: Series["results"][number]) => r.chars / (r.deltaSpanMs / 1000);
  const tp = {
    h: summarize(pick(long.first, rate)),
    b: summarize(pick(long.second, rate)),
    s: summarize(pick(longBareSame!, rate)),
  };
  const total = {
    h: summarize(pick(long.first, (r) => r.totalMs)),
    b: summarize(pick(long.second, (r) => r.totalMs)),
    s: summarize(pick(longBareSame!, (r) => r.totalMs)),
  };
  const conv = (size: number, turn: "cold" | "warm" | "bare") =>
    summarize(
      conversations
        .get(size)!
        .flatMap((r) => r[turn])
        .map((r) => r.ttftMs),
    );
  const convErrors = [...conversations.values()]
    .flat()
    .flatMap((r) => [r.cold, ...r.warm, r.bare].map((t) => t.error))
    .filter(Boolean);
  const hb = { ...hintlineBurst, ttft: summarize(pick(hintlineBurst.series, (r) => r.ttftMs)) };
  const bb = { ...bareBurst, ttft: summarize(pick(bareBurst.series, (r) => r.ttftMs)) };
  const chars = long.first.results[0]?.chars ?? 0;

  const rows: Row[] = [
    ratioRow(`TTFT, new conversation, p50 (n=${t.h.n})`, t.h.p50, t.b.p50, ms, { kind: "max", value: 1.15 }),
    ratioRow("TTFT, new conversation, p95", t.h.p95, t.b.p95, ms),
    ratioRow(
      "TTFT, new conversation, p50 — reference: the bare route with Hintline's stream headers (no gzip)",
      t.h.p50,
      t.s.p50,
      ms,
      { kind: "max", value: 1.15 },
    ),
    ratioRow(
      `Text throughput, ${LONG_WORDS.toLocaleString("en-US")}-word reply, median (n=${tp.h.n})`,
      tp.h.p50,
      tp.b.p50,
      (v) => `${num(v, 0)} chars/s`,
      {
        kind: "min",
        value: 0.9,
      },
    ),
    ratioRow(`Whole ${LONG_WORDS.toLocaleString("en-US")}-word reply (POST → end), p50`, total.h.p50, total.b.p50, ms),
    ratioRow(
      "Text throughput, median — reference: the bare route with Hintline's stream headers (no gzip)",
      tp.h.p50,
      tp.s.p50,
      (v) => `${num(v, 0)} chars/s`,
      {
        kind: "min",
        value: 0.9,
      },
    ),
    ratioRow(
      "Whole reply, p50 — reference: the bare route with Hintline's stream headers",
      total.h.p50,
      total.s.p50,
      ms,
    ),
  ];
  for (const turn of ["warm", "cold"] as const) {
    const label = turn === "warm" ? "next message of an ongoing conversation" : "first reply after import";
    rows.push(
      ratioRow(
        `TTFT, 2,000 vs 20 messages, ${label}, p50 (n=${conv(2000, turn).n}) — reference: 20 messages`,
        conv(2000, turn).p50,
        conv(20, turn).p50,
        ms,
        { kind: "max", value: 1.5 },
      ),
    );
  }
  rows.push(
    ratioRow(
      "Bare route, 2,000 vs 20 messages in its body, TTFT p50 — reference: 20 messages",
      conv(2000, "bare").p50,
      conv(20, "bare").p50,
      ms,
    ),
  );
  const errorsMet = hb.series.errors.length === 0 ? "✓" : "✗";
  rows.push(
    [
      `${CONCURRENCY} concurrent streams: errors`,
      String(hb.series.errors.length),
      String(bb.series.errors.length),
      "–",
      "0",
      errorsMet,
    ],
    ratioRow(`${CONCURRENCY} concurrent streams: TTFT p50`, hb.ttft.p50, bb.ttft.p50, ms),
    ratioRow(`${CONCURRENCY} concurrent streams: TTFT p95`, hb.ttft.p95, bb.ttft.p95, ms),
    ratioRow(`${CONCURRENCY} concurrent streams: all finished (wall)`, hb.wallMs, bb.wallMs, ms),
    [
      `${CONCURRENCY} concurrent streams: server RSS before → peak (${hb.peakSource}) → after`,
      `${mib(hb.before.rssKiB)} → ${mib(hb.peakKiB)} → ${mib(hb.after.rssKiB)}`,
      `${mib(bb.before.rssKiB)} → ${mib(bb.peakKiB)} → ${mib(bb.after.rssKiB)}`,
      "–",
      "–",
      "",
    ],
  );

  console.log("\nHintline /api/chat vs a bare AI SDK 7 route, same `next start` server, zero-latency OpenAI fake\n");
  console.log(
    markdownTable(["Measure", "Hintline", "Reference (bare AI SDK route unless noted)", "Ratio", "Goal", "Met"], rows),
  );
  console.log("\nDetails (p50 / p95):");
  for (const size of SIZES) {
    const runs = conversations.get(size)!;
    const usage = runs[0]?.warm.at(-1);
    const compressed = runs.some((r) => [r.cold, ...r.warm].some((t) => t.compressed));
    const importMs = summarize(runs.map((r) => r.importMs));
    console.log(
      `- ${size.toLocaleString("en-US")} messages: TTFT cold ${msPair(conv(size, "cold"))}, warm ${msPair(conv(size, "warm"))}, bare ${msPair(conv(size, "bare"))}; ` +
        `import ${msPair(importMs)}; ` +
        `context ${num(usage?.contextTokens ?? Number.NaN, 0)} of ${num(usage?.triggerTokens ?? Number.NaN, 0)} trigger tokens${compressed ? " (COMPRESSED!)" : ""}`,
    );
  }
  console.log(
    `- server RSS: ${mib(atReady.rssKiB)} when ready, ${mib(beforeBursts.rssKiB)} after the sequential phases (peak so far ${mib(beforeBursts.peakKiB)}); ` +
      `${mib(bb.after.rssKiB)} after both bursts of ${CONCURRENCY}`,
  );
  console.log(
    `- TTFT new conversation: Hintline ${msPair(t.h)} (min ${ms(t.h.min)}), bare ${msPair(t.b)} (min ${ms(t.b.min)}), bare with Hintline's headers ${msPair(t.s)} (min ${ms(t.s.min)})`,
  );
  console.log(
    `- throughput: Hintline ${num(tp.h.p50, 0)} / bare ${num(tp.b.p50, 0)} chars/s median; ${num(chars, 0)} chars in ${long.first.results[0]?.deltas ?? 0} text-delta events per reply`,
  );
  const errors = [
    ...ttft.first.errors,
    ...ttft.second.errors,
    ...ttftBareSame!.errors,
    ...long.first.errors,
    ...long.second.errors,
    ...longBareSame!.errors,
    ...convErrors,
    ...hb.series.errors,
    ...bb.series.errors,
  ];
  console.log(
    `- errors in all sequential runs: ${errors.length - hb.series.errors.length - bb.series.errors.length}${errors.length ? ` (first: ${errors[0]})` : ""}`,
  );
  if (errors.length) log(`server log tail:\n${app.logs().slice(-2_000)}`);
  console.log(
    `- machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ${num(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}; ` +
      `load average ${loadAtStart} at start, ${os
        .loadavg()
        .map((l) => num(l, 1))
        .join(" ")} at end; ${num((performance.now() - started) / 1000, 0)} s`,
  );
}

try {
  await main();
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
