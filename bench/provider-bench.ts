// Per provider (`npm run bench -- --only=providers`): Hintline's /api/chat against the bare AI SDK route
// (app/api/bench/bare) in the same `next start` server, with the same provider's zero-latency fake — the OpenAI, the
// Anthropic and the Gemini one, each a process of its own. First token of a new conversation, and the next message of
// an ongoing conversation at 2,000 vs 20 stored messages (imported, then one untimed first reply). Prints a markdown
// table; asserts nothing. Goals (issue #28): first token ≤ 1.2× the bare route; next message at 2,000 ≤ 1.6× at 20.
//   BENCH_RUNS (15) · BENCH_WARMUP (3) · BENCH_CONVERSATIONS (8) · BENCH_PROVIDERS (openai,anthropic,gemini)
import os from "node:os";
import { conversationRun, routes, sequentialRounds } from "./http-scenarios.ts";
import { type FakeProvider, startApp, startFake, stopAll } from "./servers.ts";
import { type Goal, goalText, markdownTable, meets, ms, num, summarize } from "./stats.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONVERSATIONS = Number(process.env.BENCH_CONVERSATIONS ?? 8);
const PROVIDERS = (process.env.BENCH_PROVIDERS ?? "openai,anthropic,gemini").split(",") as FakeProvider[];
const SIZES = [20, 2_000] as const;
const WARM_TURNS = 2;
const REPLY = "Hello from the fake.";

const ENV: Record<FakeProvider, (url: string) => Record<string, string>> = {
  openai: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: "bench", HINTLINE_MODEL: "fake-model" }),
  anthropic: (url) => ({
    ANTHROPIC_BASE_URL: url,
    ANTHROPIC_API_KEY: "bench",
    HINTLINE_MODEL: "anthropic/claude-sonnet-4-5",
  }),
  gemini: (url) => ({
    GOOGLE_BASE_URL: url,
    GOOGLE_GENERATIVE_AI_API_KEY: "bench",
    HINTLINE_MODEL: "google/gemini-2.5-flash",
  }),
};
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const TTFT_GOAL: Goal = { kind: "max", value: 1.2 };
const LONG_GOAL: Goal = { kind: "max", value: 1.6 };

async function measure(provider: FakeProvider) {
  const fake = await startFake(provider);
  await fake.setReply(REPLY);
  // 128k for every provider (as the HTTP bench): 2,000 short messages stay under the compression trigger.
  const app = await startApp({
    ...ENV[provider](fake.url),
    HINTLINE_CONTEXT_WINDOW: "128000",
    HINTLINE_BENCH_BARE: "1",
  });
  const { hintline, bare } = routes(app.url);
  const probe = await bare("ping");
  if (probe.error) throw new Error(`${provider}: the bare route does not answer (stale build?): ${probe.error}`);
  log(`${provider}: first token, ${WARMUP} warm-up + ${RUNS} runs per route`);
  const [h, b] = await sequentialRounds([(t) => hintline(t), bare], { runs: RUNS, warmup: WARMUP, text: "Say hello." });
  log(`${provider}: conversations of ${SIZES.join(" and ")} messages, 1 warm-up + ${CONVERSATIONS} each`);
  const runs = new Map<number, Awaited<ReturnType<typeof conversationRun>>[]>(SIZES.map((s) => [s, []]));
  for (let i = 0; i < CONVERSATIONS + 1; i++) {
    for (const size of i % 2 === 0 ? SIZES : [...SIZES].reverse()) {
      const run = await conversationRun(app.url, size, WARM_TURNS);
      if (i >= 1) runs.get(size)!.push(run);
    }
    await fake.setReply(REPLY); // drops the fake's recorded 2,000-message bodies
  }
  const warm = (size: number) =>
    summarize(
      runs
        .get(size)!
        .flatMap((r) => r.warm)
        .map((r) => r.ttftMs),
    );
  const bareAt = (size: number) => summarize(runs.get(size)!.map((r) => r.bare.ttftMs));
  const errors = [
    ...h!.errors,
    ...b!.errors,
    ...[...runs.values()]
      .flat()
      .flatMap((r) => [r.cold, ...r.warm, r.bare].map((t) => t.error))
      .filter(Boolean),
  ];
  if (errors.length) log(`${provider}: ${errors.length} errors, first: ${errors[0]}\n${app.logs().slice(-1_500)}`);
  await stopAll();
  return {
    ttft: { h: summarize(h!.results.map((r) => r.ttftMs)), b: summarize(b!.results.map((r) => r.ttftMs)) },
    warm,
    bareAt,
    errors: errors.length,
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = os
    .loadavg()
    .map((l) => num(l, 1))
    .join(" ");
  const rows: string[][] = [];
  for (const provider of PROVIDERS) {
    const r = await measure(provider);
    const ttftRatio = r.ttft.h.p50 / r.ttft.b.p50;
    const longRatio = r.warm(2000).p50 / r.warm(20).p50;
    const bareRatio = r.bareAt(2000).p50 / r.bareAt(20).p50;
    rows.push(
      [
        provider,
        "first token, new conversation, p50",
        ms(r.ttft.h.p50),
        ms(r.ttft.b.p50),
        `${num(ttftRatio, 2)}×`,
        goalText(TTFT_GOAL),
        meets(ttftRatio, TTFT_GOAL) ? "✓" : "✗",
      ],
      [
        provider,
        "next message, 2,000 vs 20 messages, p50",
        `${ms(r.warm(2000).p50)} vs ${ms(r.warm(20).p50)}`,
        `${ms(r.bareAt(2000).p50)} vs ${ms(r.bareAt(20).p50)} (${num(bareRatio, 2)}×)`,
        `${num(longRatio, 2)}×`,
        goalText(LONG_GOAL),
        meets(longRatio, LONG_GOAL) ? "✓" : "✗",
      ],
      [
        provider,
        "next message at 2,000 vs the bare route at 2,000, p50",
        ms(r.warm(2000).p50),
        ms(r.bareAt(2000).p50),
        `${num(r.warm(2000).p50 / r.bareAt(2000).p50, 2)}×`,
        "–",
        r.errors ? `${r.errors} errors` : "",
      ],
    );
  }
  console.log(
    "\nHintline /api/chat vs the bare AI SDK route per provider, same `next start` server, each provider's zero-latency fake\n",
  );
  console.log(markdownTable(["Provider", "Measure", "Hintline", "Bare AI SDK route", "Ratio", "Goal", "Met"], rows));
  console.log(
    `\n- runs: ${RUNS} first tokens per route, ${CONVERSATIONS} conversations per size × ${WARM_TURNS} next messages; machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ` +
      `Node ${process.version}; load average ${loadAtStart} at start, ${os
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
