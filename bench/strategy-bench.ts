// Append vs replace vs auto, measured: the same scripted 60-call conversation (29 turns of a TaskList call and an
// answer, after an opening turn) with each injection strategy, through a real `next start` server and the OpenAI
// fake, which reports cached tokens as OpenAI does (the longest prefix shared with the previous request, in
// 128-token blocks, from BENCH_CACHE_MIN_TOKENS = 1024 on). Prints billed input tokens, the cached share and the cost
// at gpt-4o-mini prices for each, and the cost model's prediction from the conversation's own S, R and N.
import { type FakeReply, startOpenAIFake } from "../tests/support/openai-fake.ts";
import { startApp, stopAll } from "./servers.ts";

const CACHE_MIN_TOKENS = Number(process.env.BENCH_CACHE_MIN_TOKENS ?? 1024);
const TURNS = 30;
const PRICE = { input: 0.15, cachedInput: 0.075 }; // gpt-4o-mini, dollars per million tokens
const ALPHA = PRICE.cachedInput / PRICE.input;
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${(i * 7) % 23}`).join(" ");

type Figures = { configured: string; calls: number; input: number; cached: number; statuses: { S: number; R: number; N: number; chosen: string } };

async function run(url: string, fake: Awaited<ReturnType<typeof startOpenAIFake>>, strategy: string): Promise<Figures> {
  const id = `strategy-${strategy}-${Date.now()}`;
  const post = async (text: string, replies: FakeReply[]) => {
    fake.enqueue(...replies);
    const response = await fetch(`${url}/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id, message: { id: `${id}-${Math.random().toString(36).slice(2)}`, role: "user", parts: [{ type: "text", text }] }, timezone: "UTC" }),
    });
    await response.text();
    if (!response.ok) throw new Error(`chat: HTTP ${response.status}`);
  };
  const turn = (i: number) => post(`Step ${i}: ${words(25, `q${i}x`)}`, [{ kind: "tools", calls: [{ name: "TaskList", arguments: {} }] }, { text: `${words(70, `a${i}x`)}.` }]);
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
    strategy: { S: number; R: number; N: number; chosen: string };
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
    const results: Figures[] = [];
    for (const strategy of ["append", "replace", "auto"]) {
      log(`strategy ${strategy}…`);
      results.push(await run(app.url, fake, strategy));
    }
    console.log(`\n### Injection strategies (${results[0]!.calls} calls each, gpt-4o-mini prices, α = ${ALPHA}, cache from ${CACHE_MIN_TOKENS} tokens)\n`);
    console.log("| strategy | calls | billed input tokens | cached | cached share | input cost | last call chose |");
    console.log("|---|---|---|---|---|---|---|");
    for (const f of results) {
      const share = f.input ? Math.round((100 * f.cached) / f.input) : 0;
      console.log(`| ${f.configured} | ${f.calls} | ${f.input.toLocaleString("en")} | ${f.cached.toLocaleString("en")} | ${share} % | $${cost(f).toFixed(5)} | ${f.statuses.chosen} |`);
    }
    const { S, R, N } = results[2]!.statuses;
    const cReplace = (N - 1) * (1 - ALPHA) * R;
    const cAppend = (ALPHA * S * N * (N - 1)) / 2;
    const [append, replace] = results;
    const equivalent = (f: Figures) => f.input - f.cached + ALPHA * f.cached;
    console.log(
      `\nCost model with this conversation's S = ${S}, R = ${R}, N = ${N}: C_replace ≈ (N−1)(1−α)R = ${Math.round(cReplace).toLocaleString("en")}, ` +
        `C_append ≈ αSN(N−1)/2 = ${Math.round(cAppend).toLocaleString("en")} input-token equivalents; append preferred while αSN/2 = ${((ALPHA * S * N) / 2).toFixed(0)} < (1−α)R = ${((1 - ALPHA) * R).toFixed(0)}.`,
    );
    console.log(
      `Measured (uncached + α·cached tokens): append ${Math.round(equivalent(append!)).toLocaleString("en")}, replace ${Math.round(equivalent(replace!)).toLocaleString("en")}, ` +
        `auto ${Math.round(equivalent(results[2]!)).toLocaleString("en")}; replace − append = ${Math.round(equivalent(replace!) - equivalent(append!)).toLocaleString("en")} (model: ${Math.round(cReplace - cAppend).toLocaleString("en")}).`,
    );
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
