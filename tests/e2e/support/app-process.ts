// A server process (scripts/server.mjs, which runs Next.js) of the test's own (for a test that stops and restarts its server): on a given port and
// database, with NEXT_MANUAL_SIG_HANDLE so that SIGTERM drains it as `npm start` does.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../../..");

export type AppProcess = { url: string; child: ChildProcess; output: () => string; terminate: () => Promise<number | null> };

export function migrateDatabase(databaseUrl: string): void {
  execFileSync(process.execPath, [path.join(root, "scripts/db-migrate.mjs"), "deploy"], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, stdio: "ignore" });
}

export async function startApp({ port, databaseUrl, env = {} }: { port: number; databaseUrl: string; env?: Record<string, string> }): Promise<AppProcess> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, DATABASE_URL: databaseUrl, NEXT_TELEMETRY_DISABLED: "1", HOST: "127.0.0.1", PORT: String(port) };
  const child = spawn(process.execPath, [path.join(root, "scripts/server.mjs")], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the server did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return {
    url,
    child,
    output: () => output,
    terminate: async () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}
