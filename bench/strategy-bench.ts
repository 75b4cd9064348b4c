// Append vs replace vs auto, measured: the same scripted 60-call conversation (29 turns of a TaskList call and an
// answer, after an opening turn) with each injection strategy, through a real `next start` server and the provider
// fakes. On the OpenAI fake, which reports cached tokens as OpenAI does (the longest prefix shared with the previous
// request, in 128-token blocks, from BENCH_CACHE_MIN_TOKENS = 1024 on), priced as gpt-4o-mini, then again on a
// provider that caches nothing; on the Anthropic fake (breakpoints, writes reported), priced as Sonnet 4.5 (reads at
// 0.1×) and as Sonnet 5.5 (reads at 0.05×, issue 49). Prices are the server's own table (lib/ai/prices.ts). Prints
// billed input tokens, the cached share and the input cost of each, what auto chose and why, and the call at which
// auto first switched to replace.
import { callCost, priceFor } from "../lib/ai/prices.ts";
import { startAnthropicFake } from "../tests/support/anthropic-fake.ts";
import { type FakeReply, startOpenAIFake } from "../tests/support/openai-fake.ts";
import { startApp, stopAll } from "./servers.ts";

const CACHE_MIN_TOKENS = Number(process.env.BENCH_CACHE_MIN_TOKENS ?? 1024);
const TURNS = 30;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${(i * 7) % 23}`).join(" ");

type Decision = { chosen: string; reason: string; alpha: number; alphaFrom: string; M: number };
type Call = { inputTokens: number | null; cachedInputTokens: number | null; cacheWriteTokens?: number };
type Figures = {
  configured: string;
  calls: number;
  input: number;
  cached: number;
  /** Dollars for the input of every call (reads, writes and plain input at the model's prices). */
  inputCost: number;
  statuses: Decision;
  /** The call at which the strategy first chose replace (auto), if it did. */
  switchedAt?: number;
};
/**
 * What a run enqueues its replies to: either fake (the replies are text and tool calls, which both take), its cache
 * emptied before each run (else a run's first call reads the system prompt an earlier run's conversation cached).
 */
type Scripted = { enqueue(...replies: FakeReply[]): void; reset(): void; setCacheMinTokens(tokens: number): void };
const scripted = (fake: { enqueue(...replies: never[]): void }): Scripted => fake as unknown as Scripted;

async function run(
  url: string,
  fake: Scripted,
  model: string,
  strategy: string,
  every: number,
  cacheMin: number,
): Promise<Figures> {
  fake.reset();
  fake.setCacheMinTokens(cacheMin);
  const id = `strategy-${strategy}-${Date.now()}`;
  const post = async (text: string, replies: FakeReply[]) => {
    fake.enqueue(...replies);
    const response = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        id,
        message: { id: `${id}-${Math.random().toString(36).slice(2)}`, role: "user", parts: [{ type: "text", text }] },
        timezone: "UTC",
      }),
    });
    await response.text();
    if (!response.ok) throw new Error(`chat: HTTP ${response.status}`);
  };
  // Every `every` turns the person adds a task in the panel: the runtime state changes (1 = at every turn).
  const turn = async (i: number) => {
    if (i > 0 && i % every === 0) {
      const added = await fetch(`${url}/api/conversations/${id}/tasks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ subject: `Task ${i}` }),
      });
      if (!added.ok) throw new Error(`task: HTTP ${added.status}`);
    }
    await post(`Step ${i}: ${words(25, `q${i}x`)}`, [
      { kind: "tools", calls: [{ name: "TaskList", arguments: {} }] },
      { text: `${words(70, `a${i}x`)}.` },
    ]);
  };
  type Context = {
    cache: { conversation: { inputTokens: number; cachedInputTokens: number }; calls: Call[] };
    strategy: Decision;
  };
  const context = async () => (await (await fetch(`${url}/api/conversations/${id}/context`)).json()) as Context;
  await turn(0);
  const patch = await fetch(`${url}/api/conversations/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ settings: { injection: { strategy } } }),
  });
  if (!patch.ok) throw new Error(`patch: HTTP ${patch.status}`);
  let switchedAt: number | undefined;
  for (let i = 1; i < TURNS; i++) {
    await turn(i);
    if (strategy !== "auto" || switchedAt !== undefined) continue;
    const now = await context();
    if (now.strategy.chosen === "replace") switchedAt = now.cache.calls.length;
  }
  const last = await context();
  const price = priceFor(model, {});
  if (!price) throw new Error(`no price for ${model}`);
  const inputCost = last.cache.calls.reduce(
    (sum, c) =>
      sum +
      (callCost(
        {
          inputTokens: c.inputTokens ?? 0,
          cachedInputTokens: c.cachedInputTokens ?? 0,
          cacheWriteTokens: c.cacheWriteTokens ?? 0,
          outputTokens: 0,
        },
        price,
      ) ?? 0),
    0,
  );
  return {
    configured: strategy,
    calls: last.cache.calls.length,
    input: last.cache.conversation.inputTokens,
    cached: last.cache.conversation.cachedInputTokens,
    inputCost,
    statuses: last.strategy,
    ...(switchedAt === undefined ? {} : { switchedAt }),
  };
}

/** One provider's table: append, replace and auto, the state changing every `every` turns. */
async function table(
  name: string,
  { url, fake, model, cacheMin }: { url: string; fake: Scripted; model: string; cacheMin: number },
  every: number,
): Promise<void> {
  const results: Figures[] = [];
  for (const strategy of ["append", "replace", "auto"]) {
    log(`${name}, state changing every ${every} turn(s), strategy ${strategy}…`);
    results.push(await run(url, fake, model, strategy, every, cacheMin));
  }
  const state = every === 1 ? "the state changing at every turn" : `the state changing every ${every} turns`;
  console.log(`\n### ${name}, ${state} (${results[0]!.calls} calls each, ${model} prices)\n`);
  console.log("| strategy | calls | billed input tokens | cached | cached share | input cost |");
  console.log("|---|---|---|---|---|---|");
  for (const f of results) {
    const share = f.input ? Math.round((100 * f.cached) / f.input) : 0;
    console.log(
      `| ${f.configured} | ${f.calls} | ${f.input.toLocaleString("en")} | ${f.cached.toLocaleString("en")} | ${share} % | $${f.inputCost.toFixed(5)} |`,
    );
  }
  const cheapest = results.slice(0, 2).reduce((a, b) => (a.inputCost <= b.inputCost ? a : b));
  const auto = results[2]!;
  const switched =
    auto.switchedAt === undefined ? "never chose replace" : `first chose replace at call ${auto.switchedAt}`;
  console.log(
    `\nCheaper of the two: ${cheapest.configured}. auto ${switched}; its last call chose ${auto.statuses.chosen} (α = ${auto.statuses.alpha}, ${auto.statuses.alphaFrom}): ${auto.statuses.reason}.`,
  );
}

async function main(): Promise<void> {
  const openai = await startOpenAIFake({ cacheMinTokens: CACHE_MIN_TOKENS });
  const anthropic = await startAnthropicFake({ apiKey: "bench" });
  try {
    const model = "gpt-4o-mini";
    const app = await startApp({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: "bench", HINTLINE_MODEL: model });
    for (const provider of [
      { name: "a provider that caches (OpenAI's rule)", min: CACHE_MIN_TOKENS },
      { name: "a provider that caches nothing", min: Number.MAX_SAFE_INTEGER },
    ]) {
      const target = { url: app.url, fake: scripted(openai), model, cacheMin: provider.min };
      for (const every of [10, 1]) await table(provider.name, target, every);
    }
    for (const sonnet of ["anthropic/claude-sonnet-4-5", "anthropic/claude-sonnet-5-5"]) {
      const claude = await startApp({
        ANTHROPIC_BASE_URL: anthropic.url,
        ANTHROPIC_API_KEY: "bench",
        HINTLINE_MODEL: sonnet,
      });
      // Anthropic's fake caches from 1,024 tokens, Sonnet's minimum.
      const target = { url: claude.url, fake: scripted(anthropic), model: sonnet, cacheMin: 1024 };
      for (const every of [10, 1]) await table(`Anthropic (${sonnet})`, target, every);
    }
  } finally {
    await stopAll();
    await Promise.all([openai.close(), anthropic.close()]);
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
