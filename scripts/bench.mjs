// `npm run bench`: runs the benchmark scripts under bench/ and prints their figures (nothing is asserted).
//   bench/prepare-call.ts — per-step cost of preparing a model call, in-process;
//   bench/http-bench.ts   — /api/chat vs a bare AI SDK route through a real `next start` and an OpenAI fake
//                           (builds the app first when the build is missing or older than the sources);
//   bench/strategy-bench.ts — the same 60-call conversation with each injection strategy: billed, cached, cost;
//   bench/workspace-bench.ts — the workspace's cost per model call (2 MB of knowledge, 8k tokens of memory);
//   bench/live-bench.ts — live replies on two instances over one PostgreSQL: 200 concurrent conversations, resume
//                         latency, the relay's cost;
//   bench/stall-bench.ts — how long a heavy request (1 MiB knowledge uploads of awkward shapes, branch operations on
//                          20,000 messages, hostile PDFs, large imports, turns beside three 8 MiB images:
//                          bench/stall-inputs.ts) stalls another client's requests, on SQLite or (BENCH_DATABASE_URL)
//                          PostgreSQL;
//   bench/browser-bench.ts — the chat in Chromium at 20, 200 and 2,000 messages: time to the last message, key-to-frame
//                            latency, DOM nodes, JavaScript on first load;
//   bench/memory-bench.ts — the serving process's RSS after a 20-stream burst vs a bare Next.js app with the AI SDK
//                           example route (bench/bare-app, built when needed), and after 100 vs 1,000 conversations;
//   bench/provider-bench.ts (`--only=providers`, not in the default run) — per provider (the OpenAI, Anthropic and Gemini
//                           fakes): first token and the next message at 2,000 vs 20 messages, against the bare route;
//   bench/live-bench.ts with BENCH_LIVE_ONLY=scale (`--only=scale`, not in the default run) — 1, 2 and 4 instances on
//                           one PostgreSQL: replies per second, NOTIFY traffic, connections, rows written (docs/scaling.md);
//   bench/step-statements.ts — the statements one further step of a reply costs PostgreSQL, from its statement log;
//   bench/runs-bench.ts — SIGKILL mid-reply: how soon the reply streams again (SQLite restart; PostgreSQL take-over);
//   bench/fixed-part-bench.ts — the system prompt and tool definitions at 4k, 8k, 32k and 128k windows, before and after
//                               issue 46 (in-process, a second).
// `npm run bench -- --only=http` (or `--only=prepare`, `--only=strategy`, `--only=workspace`, `--only=live`, `--only=stall`, `--only=browser`, `--only=memory`, `--only=scale`, `--only=providers`, `--only=steps`, `--only=runs`, `--only=fixed`) runs one of them. With HINTLINE_DIST_DIR=.next-x the HTTP
// benchmark serves that build instead (made beforehand with the same variable), safe from concurrent rebuilds.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ensureBuild } from "./start.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const tsx = path.join(root, "node_modules/.bin/tsx");
const only = process.argv.find((a) => a.startsWith("--only="))?.slice(7);
process.env.NEXT_TELEMETRY_DISABLED = "1";

// Each benchmark: its script, whether it serves the built app, whether the default run includes it, and its variables.
const BENCHES = [
  { name: "prepare", script: "prepare-call.ts", build: false },
  { name: "http", script: "http-bench.ts" },
  { name: "strategy", script: "strategy-bench.ts" },
  { name: "workspace", script: "workspace-bench.ts", build: false },
  { name: "live", script: "live-bench.ts" },
  { name: "stall", script: "stall-bench.ts" },
  { name: "browser", script: "browser-bench.ts" },
  { name: "memory", script: "memory-bench.ts" },
  { name: "steps", script: "step-statements.ts" },
  { name: "runs", script: "runs-bench.ts" },
  { name: "fixed", script: "fixed-part-bench.ts", build: false },
  { name: "providers", script: "provider-bench.ts", byDefault: false },
  { name: "scale", script: "live-bench.ts", byDefault: false, env: { BENCH_LIVE_ONLY: "scale" } },
];

let status = 0;
for (const bench of BENCHES) {
  if (only ? only !== bench.name : bench.byDefault === false) continue;
  // A private build (HINTLINE_DIST_DIR, see next.config.mjs) is the caller's to make; the default one is kept fresh.
  if (bench.build !== false && !process.env.HINTLINE_DIST_DIR) ensureBuild();
  console.log("");
  const result = spawnSync(tsx, [path.join(root, "bench", bench.script)], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, ...bench.env },
  });
  status ||= result.status ?? 1;
}
process.exit(status);
