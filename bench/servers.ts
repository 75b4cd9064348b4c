// The processes the HTTP benchmark drives: the OpenAI fake (its CLI, in its own process), a fresh migrated SQLite
// database, and the built app as `npm start` serves it (scripts/server.mjs). Every child is tracked and killed on exit, even on error.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function track(child: ChildProcess, name: string): { logs: () => string } {
  children.add(child);
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  child.once("exit", () => children.delete(child));
  child.once("error", (error) => {
    output += `\n${name}: ${String(error)}`;
  });
  return { logs: () => output };
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/** SIGTERM to every child still running, SIGKILL after 5 s; removes the temporary directories. */
export async function stopAll(): Promise<void> {
  await Promise.all(
    [...children].map(async (child) => {
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited(child);
      clearTimeout(timer);
    }),
  );
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

// Last resort when the benchmark dies without reaching its cleanup: no child outlives it.
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    void stopAll().finally(() => process.exit(130));
  });
}

export type Fake = { url: string; setReply: (text: string, chunkDelayMs?: number) => Promise<void> };

export type FakeProvider = "openai" | "anthropic" | "gemini";
const BASE_PATH: Record<FakeProvider, string> = { openai: "/v1", anthropic: "/v1", gemini: "/v1beta" };

/**
 * A provider's fake (its CLI, as its own process) on a free port: the OpenAI fake by default, or the Anthropic or
 * Gemini one; `setReply` makes every call stream `text`, no delay.
 */
export async function startFake(provider: FakeProvider = "openai"): Promise<Fake> {
  const port = await freePort();
  const args =
    provider === "openai"
      ? [path.join(root, "tests/support/openai-fake-cli.ts"), "--port", String(port), "--host", "127.0.0.1"]
      : [
          path.join(root, "tests/support/provider-fake-cli.ts"),
          "--provider",
          provider,
          "--port",
          String(port),
          "--host",
          "127.0.0.1",
        ];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  const { logs } = track(child, `${provider}-fake`);
  const deadline = Date.now() + 15_000;
  while (!logs().includes("listening on")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`${provider}-fake did not start:\n${logs()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const control = `http://127.0.0.1:${port}/__fake`;
  const post = async (what: string, body?: unknown) => {
    const response = await fetch(`${control}/${what}`, {
      method: "POST",
      body: body === undefined ? "" : JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${provider}-fake ${what}: HTTP ${response.status} ${await response.text()}`);
  };
  return {
    url: `http://127.0.0.1:${port}${BASE_PATH[provider]}`,
    // The fake records every request body; a reset keeps its memory flat over thousands of 2,000-message calls.
    setReply: async (text, chunkDelayMs) => {
      await post("reset");
      await post("default", { text, ...(chunkDelayMs ? { chunkDelayMs } : {}) });
    },
  };
}

export type AppServer = { url: string; pid: number; databaseUrl: string; logs: () => string };

/** Node options for a server process: a CPU profile (BENCH_CPU_PROF_DIR) and any given here (e.g. a heap-snapshot signal). */
function nodeArgs(extra: readonly string[]): string[] {
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  return [...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : []), ...extra];
}

/** The node options `npm start` runs the server with (package.json's start script), e.g. the young generation's cap. */
export function startScriptNodeOptions(): string[] {
  const script = (
    JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { scripts: { start: string } }
  ).scripts.start;
  return script.split(/\s+/).filter((word) => word.startsWith("--"));
}

/** Waits until `probe` answers 200 (the server is ready), failing when the process exits or after 60 s. */
async function ready(child: ChildProcess, probe: string, logs: () => string, name: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited early:\n${logs()}`);
    const status = await fetch(probe).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) return;
    if (Date.now() > deadline) throw new Error(`${name} did not become ready:\n${logs()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/**
 * The app as `npm start` serves it (scripts/server.mjs, the server in front of Next.js, with the node options of
 * package.json's start script) on a free loopback port, on a
 * fresh SQLite database in a temporary directory (migrated), or on the given database (migrated too; several instances
 * may share a PostgreSQL one). `nodeOptions` go to the server's node process.
 */
export async function startApp(
  env: Record<string, string>,
  { databaseUrl: shared, nodeOptions = [] }: { databaseUrl?: string; nodeOptions?: readonly string[] } = {},
): Promise<AppServer> {
  const distDir = process.env.HINTLINE_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID")))
    throw new Error(`No build in ${distDir}: run \`npx next build\` first`);
  let databaseUrl = shared;
  if (!databaseUrl) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hintline-bench-"));
    tempDirs.add(dir);
    databaseUrl = `file:${path.join(dir, "bench.db")}`;
  }
  execFileSync(process.execPath, [path.join(root, "scripts/db-migrate.mjs"), "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: "pipe",
  });
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = {
    ...process.env,
    ...env,
    DATABASE_URL: databaseUrl,
    NEXT_TELEMETRY_DISABLED: "1",
    NEXT_MANUAL_SIG_HANDLE: "true",
    PORT: String(port),
    HOST: "127.0.0.1",
  };
  delete childEnv.HINTLINE_AUTH_TOKEN; // the proxy lets everything through without a token
  // The node process spawned here is the server itself (scripts/server.mjs runs Next.js in-process), so its pid is
  // the one to watch.
  const child = spawn(
    process.execPath,
    [...startScriptNodeOptions(), ...nodeArgs(nodeOptions), path.join(root, "scripts/server.mjs")],
    {
      cwd: root,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const { logs } = track(child, "hintline server");
  const url = `http://127.0.0.1:${port}`;
  await ready(child, `${url}/api/model`, logs, "the Hintline server");
  return { url, pid: child.pid!, databaseUrl, logs };
}

/** A separate Next.js app (e.g. bench/bare-app, already built) under `next start` on a free loopback port. */
export async function startNextApp(
  dir: string,
  env: Record<string, string>,
  { nodeOptions = [] }: { nodeOptions?: readonly string[] } = {},
): Promise<AppServer> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, NEXT_TELEMETRY_DISABLED: "1", NODE_ENV: "production" };
  const nextBin = path.join(root, "node_modules/next/dist/bin/next");
  const child = spawn(
    process.execPath,
    [...nodeArgs(nodeOptions), nextBin, "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: dir,
      env: childEnv,
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  const { logs } = track(child, `next start (${path.basename(dir)})`);
  const url = `http://127.0.0.1:${port}`;
  await ready(child, `${url}/`, logs, `next start in ${dir}`);
  return { url, pid: child.pid!, databaseUrl: "", logs };
}

export type Memory = { rssKiB: number; peakKiB: number };

/** VmRSS and VmHWM (peak RSS since start or since the last `resetPeak`) of a process, from /proc/<pid>/status. */
export function memoryOf(pid: number): Memory {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  const field = (name: string) => Number(status.match(new RegExp(`^${name}:\\s+(\\d+) kB`, "m"))?.[1] ?? Number.NaN);
  return { rssKiB: field("VmRSS"), peakKiB: field("VmHWM") };
}

/** Resets VmHWM to the current RSS (Linux: writing 5 to clear_refs); false when the kernel refuses. */
export function resetPeak(pid: number): boolean {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}
