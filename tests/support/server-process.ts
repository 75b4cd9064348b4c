// The one way tests start scripts/server.mjs (the server `npm start` runs) and wait for it: used by the API tests'
// app-server.ts and by Playwright's app-process.ts, so it imports no test framework.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export type ServerProcess = {
  url: string;
  child: ChildProcess;
  output: () => string;
  exited: () => Promise<number | null>;
};

/**
 * Spawns the server with exactly `env` on 127.0.0.1:`port` and resolves once `ready` answers (any status below 500)
 * or fails with the server's output when it exits early or is not ready within a minute.
 */
export async function spawnServer({
  port,
  env,
  ready = "/api/health",
  headers = {},
}: {
  port: number;
  env: Record<string, string | undefined>;
  ready?: string;
  headers?: Record<string, string>;
}): Promise<ServerProcess> {
  const childEnv: Record<string, string | undefined> = {
    ...env,
    NEXT_TELEMETRY_DISABLED: "1",
    HOST: "127.0.0.1",
    PORT: String(port),
  };
  const child = spawn(process.execPath, [path.join(root, "scripts/server.mjs")], {
    cwd: root,
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += d));
  child.stderr?.on("data", (d) => (output += d));
  const gone = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited early:\n${output}`);
    const answered = await fetch(`${url}${ready}`, { headers }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (answered) break;
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`the server did not become ready:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  return {
    url,
    child,
    output: () => output,
    exited: () => (child.exitCode !== null || child.signalCode !== null ? Promise.resolve(child.exitCode) : gone),
  };
}
