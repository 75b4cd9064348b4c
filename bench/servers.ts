// The processes the HTTP benchmark drives: the OpenAI fake (its CLI, in its own process), a fresh migrated SQLite
// database, and `next start` serving the built app. Every child is tracked and killed on exit, even on error.
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

/** The OpenAI fake's CLI on a free port; `setReply` makes every completion stream `text` word by word, no delay. */
export async function startFake(): Promise<Fake> {
  const port = await freePort();
  const cli = path.join(root, "tests/support/openai-fake-cli.ts");
  const child = spawn(process.execPath, [cli, "--port", String(port), "--host", "127.0.0.1"], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
  const { logs } = track(child, "openai-fake");
  const deadline = Date.now() + 15_000;
  while (!logs().includes("listening on")) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`openai-fake did not start:\n${logs()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  const control = `http://127.0.0.1:${port}/__fake`;
  const post = async (what: string, body?: unknown) => {
    const response = await fetch(`${control}/${what}`, { method: "POST", body: body === undefined ? "" : JSON.stringify(body) });
    if (!response.ok) throw new Error(`openai-fake ${what}: HTTP ${response.status} ${await response.text()}`);
  };
  return {
    url: `http://127.0.0.1:${port}/v1`,
    // The fake records every request body; a reset keeps its memory flat over thousands of 2,000-message calls.
    setReply: async (text, chunkDelayMs) => {
      await post("reset");
      await post("default", { text, ...(chunkDelayMs ? { chunkDelayMs } : {}) });
    },
  };
}

export type AppServer = { url: string; pid: number; databaseUrl: string; logs: () => string };

/**
 * `next start` on a free loopback port, on a fresh SQLite database in a temporary directory (migrated), or on the
 * given database (migrated too; several instances may share a PostgreSQL one).
 */
export async function startApp(env: Record<string, string>, { databaseUrl: shared }: { databaseUrl?: string } = {}): Promise<AppServer> {
  const distDir = process.env.HINTLINE_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID"))) throw new Error(`No build in ${distDir}: run \`npx next build\` first`);
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
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1", PORT: String(port) };
  delete childEnv.HINTLINE_AUTH_TOKEN; // the proxy lets everything through without a token
  const profileDir = process.env.BENCH_CPU_PROF_DIR;
  const nodeArgs = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(profileDir)}`] : [];
  const nextBin = path.join(root, "node_modules/next/dist/bin/next");
  // The node process spawned here is the server itself (`next start` does not fork), so its pid is the one to watch.
  const child = spawn(process.execPath, [...nodeArgs, nextBin, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const { logs } = track(child, "next start");
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`next start exited early:\n${logs()}`);
    const status = await fetch(`${url}/api/model`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > deadline) throw new Error(`next start did not become ready:\n${logs()}`);
    await new Promise((r) => setTimeout(r, 150));
  }
  return { url, pid: child.pid!, databaseUrl, logs };
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
