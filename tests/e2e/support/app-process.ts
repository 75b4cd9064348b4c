// A server process (scripts/server.mjs, which runs Next.js) of the test's own (for a test that stops and restarts its server): on a given port and
// database, with NEXT_MANUAL_SIG_HANDLE so that SIGTERM drains it as `npm start` does.
import { type ChildProcess, execFileSync } from "node:child_process";
import path from "node:path";
import { spawnServer } from "../../support/server-process.ts";

const root = path.resolve(import.meta.dirname, "../../..");

export type AppProcess = {
  url: string;
  child: ChildProcess;
  output: () => string;
  terminate: () => Promise<number | null>;
};

export function migrateDatabase(databaseUrl: string): void {
  execFileSync(process.execPath, [path.join(root, "scripts/db-migrate.mjs"), "deploy"], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: "ignore",
  });
}

export async function startApp({
  port,
  databaseUrl,
  env = {},
}: {
  port: number;
  databaseUrl: string;
  env?: Record<string, string>;
}): Promise<AppProcess> {
  const { url, child, output, exited } = await spawnServer({
    port,
    env: { ...process.env, ...env, DATABASE_URL: databaseUrl },
  });
  return {
    url,
    child,
    output,
    terminate: async () => {
      child.kill("SIGTERM");
      return exited();
    },
  };
}
