import fs from "node:fs";
import { newId, routes, seedMessages } from "./http-scenarios.ts";
import { postJson } from "./ui-stream-client.ts";
import { type FakeProvider, startApp, startFake, stopAll } from "./servers.ts";
const provider = (process.env.P ?? "openai") as FakeProvider;
const ENV: Record<string, (url: string) => Record<string, string>> = {
  openai: (url) => ({ OPENAI_BASE_URL: url, OPENAI_API_KEY: "bench", HINTLINE_MODEL: "fake-model" }),
  anthropic: (url) => ({ ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: "bench", HINTLINE_MODEL: "anthropic/claude-sonnet-4-5" }),
  gemini: (url) => ({ GOOGLE_BASE_URL: url, GOOGLE_GENERATIVE_AI_API_KEY: "bench", HINTLINE_MODEL: "google/gemini-2.5-flash" }),
};
const fake = await startFake(provider);
await fake.setReply("Hello from the fake.");
const size = Number(process.env.SIZE ?? 2000);
const app = await startApp({ ...ENV[provider]!(fake.url), HINTLINE_CONTEXT_WINDOW: "128000", HINTLINE_BENCH_BARE: "1", ...(process.env.TRACE ? { DEBUG: "prisma:driver-adapter:better-sqlite3" } : {}) }, { nodeOptions: process.env.TRACE_GC ? ["--trace-gc"] : process.env.PROF ? ["--cpu-prof", "--cpu-prof-dir=/tmp/prof", "--cpu-prof-interval=200"] : [] });
const { hintline } = routes(app.url);
for (let i = 0; i < 3; i++) await hintline("warm up " + i);
if (process.env.NEW) {
  const windows: [string, string][] = [];
  const times: number[] = [];
  const { bare } = routes(app.url);
  for (let i = 0; i < 60; i++) {
    const a = process.hrtime.bigint();
    const r = await (process.env.NEW === "bare" ? bare("Say hello.") : hintline("Say hello."));
    windows.push([String(a / 1000n), String(a / 1000n + BigInt(Math.round(r.ttftMs * 1000)))]);
    await new Promise((res) => setTimeout(res, 100));
    times.push(r.ttftMs);
  }
  fs.writeFileSync("/tmp/prof/windows.json", JSON.stringify(windows));
  times.sort((a, b) => a - b);
  console.log("new p50", times[30]);
  await stopAll();
  process.exit(0);
}
const times: number[] = [];
const windows: [string, string][] = [];
for (let c = 0; c < Number(process.env.CONVS ?? 6); c++) {
  const id = newId("conv");
  const imported = await postJson<{ id: string }>(`${app.url}/api/conversations/import`, { version: 1, conversation: { id, title: "p", messages: seedMessages(size, id) } });
  await hintline("What did we note about the river?", imported.id);
  for (let t = 0; t < Number(process.env.TURNS ?? 10); t++) {
    const a = process.hrtime.bigint();
    const before = app.logs().length;
    const r = await hintline("And where does it bend?", imported.id);
    await new Promise((res) => setTimeout(res, 50));
    if (process.env.TRACE && t === 5 && c === 1) fs.writeFileSync(`/tmp/prof/trace-${size}.log`, app.logs().slice(before));
    windows.push([String(a / 1000n), String(process.hrtime.bigint() / 1000n)]);
    times.push(r.ttftMs);
  }
  await fake.setReply("Hello from the fake.");
}
fs.writeFileSync("/tmp/prof/windows.json", JSON.stringify(windows));
times.sort((a, b) => a - b);
console.log(provider, size, "warm p50", times[Math.floor(times.length / 2)]!.toFixed(1), "n", times.length);
await stopAll();
