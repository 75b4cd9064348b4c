// What the serving process holds (`npm run bench -- --only=memory`): Hintline as `npm start` serves it
// (scripts/server.mjs) side by side with a bare Next.js app running the AI SDK's example route (bench/bare-app, built
// here with the same `next`), both against the zero-latency OpenAI fake. Prints figures; asserts nothing.
//   1. The same load on each: the page once, 5 sequential replies, then a burst of 20 concurrent streams (300-word
//      replies); RSS (VmRSS, /proc/<pid>/status) after the burst, once the process is idle.
//   2. Hintline only: 1,000 conversations (20 stored messages each, imported) opened once each — the page, then one
//      reply — with RSS and the V8 heap after 100 and after 1,000; then on to 2,000, the plateau check: a heap that
//      holds as much at 2,000 as at 1,000 is caches filled to their bounds (lib/bounded-map.ts), one that keeps
//      growing holds something per conversation.
// BENCH_HEAP_SNAPSHOT_DIR=dir also writes a V8 heap snapshot of each process after each phase (node's
// --heapsnapshot-signal); `tsx bench/heap-summary.ts <file>` says what holds the heap.
//   BENCH_MEMORY_BURST (20) · BENCH_MEMORY_CONVERSATIONS (1000) · BENCH_MEMORY_PLATEAU (2000; 0: no plateau check) ·
//   BENCH_MEMORY_SETTLE_MS (3000) ·
//   BENCH_HINTLINE_NODE_OPTIONS (more node options for Hintline's process, after package.json's start script's)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { newId, prose, seedMessages } from "./http-scenarios.ts";
import { type AppServer, memoryOf, startApp, startFake, startNextApp, stopAll } from "./servers.ts";
import { goalText, markdownTable, meets, mib, num } from "./stats.ts";
import { postJson, postStream, type StreamResult } from "./ui-stream-client.ts";

const BURST = Number(process.env.BENCH_MEMORY_BURST ?? 20);
const CONVERSATIONS = Number(process.env.BENCH_MEMORY_CONVERSATIONS ?? 1000);
const PLATEAU = Number(process.env.BENCH_MEMORY_PLATEAU ?? 2 * CONVERSATIONS);
const SETTLE_MS = Number(process.env.BENCH_MEMORY_SETTLE_MS ?? 3000);
const SNAPSHOT_DIR = process.env.BENCH_HEAP_SNAPSHOT_DIR
  ? path.resolve(process.env.BENCH_HEAP_SNAPSHOT_DIR)
  : undefined;
/** Goal of the issue: Hintline's RSS after the burst at most this many times the bare app's. */
const RATIO_GOAL = { kind: "max", value: 1.3 } as const;
/** "Flat": RSS after 1,000 conversations at most this much above RSS after 100 (V8 keeps some heap it has grown). */
const FLAT_GOAL = { kind: "max", value: 1.1 } as const;
/** …and what the heap holds after a full collection at most this much more (the caches' bounds, reached). */
const HEAP_GROWTH_GOAL_MIB = 16;
const root = path.resolve(import.meta.dirname, "..");
const bareDir = path.join(root, "bench/bare-app");
const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Builds bench/bare-app when its build is missing or older than its sources or the installed `next`. */
function ensureBareBuild(): void {
  const marker = path.join(bareDir, ".next/BUILD_ID");
  const sources = ["app", "next.config.mjs", "tsconfig.json"].flatMap((entry) => {
    const full = path.join(bareDir, entry);
    return fs.statSync(full).isDirectory()
      ? fs.readdirSync(full, { recursive: true, encoding: "utf8" }).map((f) => path.join(full, f))
      : [full];
  });
  sources.push(path.join(root, "node_modules/next/package.json"), path.join(root, "package-lock.json"));
  if (fs.existsSync(marker) && sources.every((f) => fs.statSync(f).mtimeMs <= fs.statSync(marker).mtimeMs)) return;
  log("building bench/bare-app (the reference app)…");
  const result = spawnSync(process.execPath, [path.join(root, "node_modules/next/dist/bin/next"), "build"], {
    cwd: bareDir,
    stdio: "inherit",
  });
  if (result.status !== 0) throw new Error("next build of bench/bare-app failed");
}

const userMessage = (text: string) => ({ id: newId("m"), role: "user", parts: [{ type: "text", text }] });

type Load = { errors: string[]; after: number };

/** The page once, 5 sequential replies, then `BURST` concurrent ones; RSS once idle. */
async function load(server: AppServer, post: (text: string) => Promise<StreamResult>, page: string): Promise<Load> {
  const errors: string[] = [];
  const pageStatus = await fetch(`${server.url}${page}`).then((r) => r.status);
  if (pageStatus !== 200) errors.push(`GET ${page}: HTTP ${pageStatus}`);
  for (let i = 0; i < 5; i++) {
    const r = await post("Warm up.");
    if (r.error) errors.push(r.error);
  }
  const results = await Promise.all(Array.from({ length: BURST }, () => post("Tell me about rivers.")));
  for (const r of results) if (r.error) errors.push(r.error);
  await sleep(SETTLE_MS);
  return { errors, after: memoryOf(server.pid).rssKiB };
}

type Usage = { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers: number };

/**
 * Through the process's inspector (started with --inspect=127.0.0.1:0): a full garbage collection, then
 * process.memoryUsage() — what the process holds, without the garbage V8 has not collected yet.
 */
async function usageAfterGc(server: AppServer): Promise<Usage> {
  const address = server.logs().match(/Debugger listening on (ws:\/\/\S+)/)?.[1];
  if (!address) throw new Error("no inspector address in the server's output");
  const socket = new WebSocket(address);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let next = 0;
  const call = (method: string, params: object = {}) =>
    new Promise<{ result?: { result?: { value?: string } } }>((resolve) => {
      const id = ++next;
      socket.addEventListener("message", function answer(event) {
        const message = JSON.parse(String(event.data)) as { id?: number };
        if (message.id !== id) return;
        socket.removeEventListener("message", answer);
        resolve(message as { result?: { result?: { value?: string } } });
      });
      socket.send(JSON.stringify({ id, method, params }));
    });
  await call("HeapProfiler.collectGarbage");
  const answer = await call("Runtime.evaluate", {
    expression: "JSON.stringify(process.memoryUsage())",
    returnByValue: true,
  });
  socket.close();
  const usage = JSON.parse(answer.result?.result?.value ?? "{}") as Usage;
  return Object.fromEntries(Object.entries(usage).map(([k, v]) => [k, v / 1024])) as Usage;
}

/** SIGUSR2 makes the process write a heap snapshot into SNAPSHOT_DIR; waits until the new file stops growing. */
async function heapSnapshot(server: AppServer, label: string): Promise<void> {
  if (!SNAPSHOT_DIR) return;
  const before = new Set(fs.readdirSync(SNAPSHOT_DIR));
  process.kill(server.pid, "SIGUSR2");
  const deadline = Date.now() + 180_000;
  for (let lastSize = -1; Date.now() < deadline; ) {
    await sleep(1000);
    const file = fs.readdirSync(SNAPSHOT_DIR).find((f) => !before.has(f) && f.endsWith(".heapsnapshot"));
    if (!file) continue;
    const size = fs.statSync(path.join(SNAPSHOT_DIR, file)).size;
    if (size > 0 && size === lastSize) {
      const named = path.join(SNAPSHOT_DIR, `${label}.heapsnapshot`);
      fs.renameSync(path.join(SNAPSHOT_DIR, file), named);
      log(`heap snapshot: ${named}`);
      return;
    }
    lastSize = size;
  }
  log(`heap snapshot ${label}: not written within 3 minutes`);
}

/** A conversation of 20 stored messages, opened once: imported, its page loaded, one reply. */
async function openConversation(url: string): Promise<string | undefined> {
  const id = newId("open");
  try {
    await postJson(`${url}/api/conversations/import`, {
      version: 1,
      conversation: { id, title: "Memory bench", messages: seedMessages(20, id) },
    });
    const page = await fetch(`${url}/c/${id}`);
    await page.arrayBuffer();
    if (page.status !== 200) return `GET /c/${id}: HTTP ${page.status}`;
    const reply = await postStream(`${url}/api/chat`, {
      id,
      message: userMessage("What did we note about the river?"),
      timezone: "UTC",
    });
    return reply.error;
  } catch (error) {
    return String(error);
  }
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = os
    .loadavg()
    .map((l) => num(l, 1))
    .join(" ");
  ensureBareBuild();
  if (SNAPSHOT_DIR) fs.mkdirSync(SNAPSHOT_DIR, { recursive: true });
  const nodeOptions = [
    "--inspect=127.0.0.1:0",
    ...(SNAPSHOT_DIR ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${SNAPSHOT_DIR}`] : []),
  ];
  const fake = await startFake();
  await fake.setReply(prose(300));
  const env = { OPENAI_BASE_URL: fake.url, OPENAI_API_KEY: "bench", HINTLINE_MODEL: "fake-model" };
  const bare = await startNextApp(bareDir, env, { nodeOptions });
  const extra = process.env.BENCH_HINTLINE_NODE_OPTIONS?.split(/\s+/).filter(Boolean) ?? [];
  const app = await startApp(
    { ...env, HINTLINE_CONTEXT_WINDOW: "128000" },
    { nodeOptions: [...nodeOptions, ...extra] },
  );
  const atReady = { bare: memoryOf(bare.pid).rssKiB, hintline: memoryOf(app.pid).rssKiB };
  log(`bare app pid ${bare.pid} at ${bare.url}; Hintline pid ${app.pid} at ${app.url}`);

  log(`the same load on each: the page, 5 replies, a burst of ${BURST} streams`);
  const bareLoad = await load(
    bare,
    (text) => postStream(`${bare.url}/api/chat`, { messages: [userMessage(text)] }),
    "/",
  );
  const hintlineLoad = await load(
    app,
    (text) => postStream(`${app.url}/api/chat`, { id: newId("c"), message: userMessage(text), timezone: "UTC" }),
    "/",
  );
  await heapSnapshot(bare, "bare-after-burst");
  await heapSnapshot(app, "hintline-after-burst");

  log(`${CONVERSATIONS} conversations opened once each (4 at a time)`);
  await fake.setReply("Noted.");
  const marks = [100, CONVERSATIONS].filter((n, i, all) => n <= CONVERSATIONS && all.indexOf(n) === i);
  const plateau = PLATEAU > CONVERSATIONS ? PLATEAU : undefined;
  const at = new Map<number, { rss: number; heap: number; gc: Usage }>();
  const errors: string[] = [];
  let opened = 0;
  for (const mark of plateau ? [...marks, plateau] : marks) {
    const workers = Array.from({ length: 4 }, async () => {
      while (opened < mark) {
        opened++;
        const error = await openConversation(app.url);
        if (error) errors.push(error);
      }
    });
    await Promise.all(workers);
    await fake.setReply("Noted."); // drops the fake's recorded requests
    await sleep(SETTLE_MS);
    const rss = memoryOf(app.pid).rssKiB;
    const gc = await usageAfterGc(app);
    at.set(mark, { rss, heap: gc.heapUsed, gc });
    log(
      `${mark} conversations: RSS ${mib(rss)}; after a full GC: RSS ${mib(gc.rss)}, heap ${mib(gc.heapUsed)} used of ${mib(gc.heapTotal)}, external ${mib(gc.external)}`,
    );
    // Two snapshots to diff (heap-summary.ts) when the plateau check runs: what 1,000 more conversations added.
    if (mark >= CONVERSATIONS) await heapSnapshot(app, `hintline-after-${mark}`);
  }

  const ratio = hintlineLoad.after / bareLoad.after;
  const first = at.get(marks[0]!)!;
  const last = at.get(marks.at(-1)!)!;
  const growth = last.rss / first.rss;
  const rows = [
    [
      `RSS after the same load (page, 5 replies, ${BURST} concurrent streams)`,
      mib(hintlineLoad.after),
      mib(bareLoad.after),
      `${num(ratio, 2)}×`,
      goalText(RATIO_GOAL),
      meets(ratio, RATIO_GOAL) ? "✓" : "✗",
    ],
    [
      "RSS when ready (before any request)",
      mib(atReady.hintline),
      mib(atReady.bare),
      `${num(atReady.hintline / atReady.bare, 2)}×`,
      "–",
      "",
    ],
    [
      `RSS after ${num(marks.at(-1)!, 0)} vs ${num(marks[0]!, 0)} conversations opened once (Hintline)`,
      mib(last.rss),
      mib(first.rss),
      `${num(growth, 2)}×`,
      goalText(FLAT_GOAL),
      meets(growth, FLAT_GOAL) ? "✓" : "✗",
    ],
    [
      `V8 heap used after a full GC, ${num(marks.at(-1)!, 0)} vs ${num(marks[0]!, 0)} conversations (Hintline)`,
      mib(last.heap),
      mib(first.heap),
      `+${mib(last.heap - first.heap)}`,
      `≤ +${HEAP_GROWTH_GOAL_MIB} MiB`,
      last.heap - first.heap <= HEAP_GROWTH_GOAL_MIB * 1024 ? "✓" : "✗",
    ],
    [
      `RSS after a full GC, ${num(marks.at(-1)!, 0)} vs ${num(marks[0]!, 0)} conversations (Hintline)`,
      mib(last.gc.rss),
      mib(first.gc.rss),
      `${num(last.gc.rss / first.gc.rss, 2)}×`,
      "–",
      "",
    ],
  ];
  const top = plateau ? at.get(plateau) : undefined;
  if (plateau && top) {
    rows.push(
      [
        `V8 heap used after a full GC, ${num(plateau, 0)} vs ${num(marks.at(-1)!, 0)} conversations (the plateau)`,
        mib(top.heap),
        mib(last.heap),
        `+${mib(top.heap - last.heap)}`,
        "–",
        "",
      ],
      [
        `RSS after a full GC, ${num(plateau, 0)} vs ${num(marks.at(-1)!, 0)} conversations (the plateau)`,
        mib(top.gc.rss),
        mib(last.gc.rss),
        `${num(top.gc.rss / last.gc.rss, 2)}×`,
        "–",
        "",
      ],
    );
  }
  console.log(
    "\nMemory of the serving process: Hintline (scripts/server.mjs) vs a bare Next.js app with the AI SDK example route\n",
  );
  console.log(markdownTable(["Measure", "Hintline", "Reference", "Ratio", "Goal", "Met"], rows));
  const allErrors = [...bareLoad.errors, ...hintlineLoad.errors, ...errors];
  console.log(`\n- errors: ${allErrors.length}${allErrors.length ? ` (first: ${allErrors[0]})` : ""}`);
  console.log(
    `- machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? "?"}, ${num(os.totalmem() / 2 ** 30, 0)} GiB, Node ${process.version}; ` +
      `load average ${loadAtStart} at start, ${os
        .loadavg()
        .map((l) => num(l, 1))
        .join(" ")} at end; ${num((performance.now() - started) / 1000, 0)} s`,
  );
  if (allErrors.length) log(`Hintline log tail:\n${app.logs().slice(-2_000)}`);
}

try {
  await main();
} catch (error) {
  console.error(`bench: ${error instanceof Error ? error.stack : String(error)}`);
  process.exitCode = 1;
} finally {
  await stopAll();
}
