// Append vs replace vs auto, measured: the same scripted 60-call conversation (29 turns of a TaskList call and an
// answer, after an opening turn) with each injection strategy, through a real `next start` server and the OpenAI
// fake, which reports cached tokens as OpenAI does (the longest prefix shared with the previous request, in
// 128-token blocks, from BENCH_CACHE_MIN_TOKENS = 1024 on), then again on a provider that caches nothing. Prints billed
// input tokens, the cached share and the cost at gpt-4o-mini prices for each, and what auto chose and why.
import { type FakeReply, startOpenAIFake } from "../tests/support/openai-fake.ts";
import { startApp, stopAll } from "./servers.ts";

const CACHE_MIN_TOKENS = Number(process.env.BENCH_CACHE_MIN_TOKENS ?? 1024);
const TURNS = 30;
const PRICE = { input: 0.15, cachedInput: 0.075 }; // gpt-4o-mini, dollars per million tokens
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${(i * 7) % 23}`).join(" ");

type Decision = { chosen: string; reason: string; alpha: number; alphaFrom: string };
type Figures = { configured: string; calls: number; input: number; cached: number; statuses: Decision };

async function run(
  url: string,
  fake: Awaited<ReturnType<typeof startOpenAIFake>>,
  strategy: string,
  every: number,
): Promise<Figures> {
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
  await turn(0);
  const patch = await fetch(`${url}/api/conversations/${id}`, {
    method: "PATCH",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ settings: { injection: { strategy } } }),
  });
  if (!patch.ok) throw new Error(`patch: HTTP ${patch.status}`);
  for (let i = 1; i < TURNS; i++) await turn(i);
  const context = (await (await fetch(`${url}/api/conversations/${id}/context`)).json()) as {
    cache: { conversation: { inputTokens: number; cachedInputTokens: number }; calls: unknown[] };
    strategy: Decision;
  };
  return {
    configured: strategy,
    calls: context.cache.calls.length,
    input: context.cache.conversation.inputTokens,
    cached: context.cache.conversation.cachedInputTokens,
    statuses: context.strategy,
  };
}

const cost = (f: Figures) => ((f.input - f.cached) * PRICE.input + f.cached * PRICE.cachedInput) / 1_000_000;

async function main(): Promise<void> {
  const fake = await startOpenAIFake({ cacheMinTokens: CACHE_MIN_TOKENS });
  try {
    const app = await startApp({ OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "bench", HINTLINE_MODEL: "gpt-4o-mini" });
    for (const provider of [
      { name: "a provider that caches (OpenAI's rule)", min: CACHE_MIN_TOKENS },
      { name: "a provider that caches nothing", min: Number.MAX_SAFE_INTEGER },
    ]) {
      fake.setCacheMinTokens(provider.min);
      for (const every of [10, 1]) {
        const results: Figures[] = [];
        for (const strategy of ["append", "replace", "auto"]) {
          log(`${provider.name}, state changing every ${every} turn(s), strategy ${strategy}…`);
          results.push(await run(app.url, fake, strategy, every));
        }
        const state = every === 1 ? "the state changing at every turn" : `the state changing every ${every} turns`;
        console.log(`\n### ${provider.name}, ${state} (${results[0]!.calls} calls each, gpt-4o-mini prices)\n`);
        console.log("| strategy | calls | billed input tokens | cached | cached share | input cost |");
        console.log("|---|---|---|---|---|---|");
        for (const f of results) {
          const share = f.input ? Math.round((100 * f.cached) / f.input) : 0;
          console.log(
            `| ${f.configured} | ${f.calls} | ${f.input.toLocaleString("en")} | ${f.cached.toLocaleString("en")} | ${share} % | $${cost(f).toFixed(5)} |`,
          );
        }
        const cheapest = results.slice(0, 2).reduce((a, b) => (cost(a) <= cost(b) ? a : b));
        const auto = results[2]!.statuses;
        console.log(
          `\nCheaper of the two: ${cheapest.configured}. auto's last call chose ${auto.chosen} (α = ${auto.alpha}, ${auto.alphaFrom}): ${auto.reason}.`,
        );
      }
    }
  } finally {
    await stopAll();
    await fake.close();
  }
}

main().catch(async (error) => {
  console.error(error);
  await stopAll();
  process.exit(1);
});
