// Starts the built app (scripts/server.mjs, the server `npm start` runs) as a real server process on a free port with its own fresh SQLite database.
// Requires a build (`npm test` makes one; or `npx next build`).
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { migrate } from "./db-global-setup.ts";
import { type OpenAIFake, startOpenAIFake } from "./openai-fake.ts";
import { spawnServer } from "./server-process.ts";

export type AppServer = {
  url: string;
  databaseUrl: string;
  logs: () => string;
  stop: () => Promise<void>;
  /** Kills the server the hard way (SIGKILL), as a crash would. */
  kill: () => Promise<void>;
  /** Sends SIGTERM (a rolling restart's stop) and resolves with the exit code once the process is gone. */
  terminate: () => Promise<number | null>;
  /** Sends a signal and goes on (SIGSTOP / SIGCONT: a process paused and woken, as a stalled machine is). */
  signal: (name: NodeJS.Signals) => void;
};

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export async function startAppServer({
  env = {},
  databaseUrl,
}: {
  env?: Record<string, string | undefined>;
  databaseUrl?: string;
} = {}): Promise<AppServer> {
  const root = path.resolve(import.meta.dirname, "../..");
  const distDir = process.env.HINTLINE_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID")))
    throw new Error(`No build in ${distDir}: run \`npx next build\` first`);
  const dbUrl = databaseUrl ?? `file:${path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hintline-app-")), "app.db")}`;
  if (!databaseUrl) migrate(dbUrl);
  const port = await freePort();
  const childEnv: Record<string, string> = {};
  for (const [key, value] of Object.entries({ ...process.env, ...env })) {
    if (value !== undefined && !(key in env && env[key] === undefined)) childEnv[key] = value;
  }
  // A test only gets a provider it asks for.
  for (const key of [
    "OPENAI_API_KEY",
    "OPENAI_BASE_URL",
    "HINTLINE_MODEL",
    "HINTLINE_AUTH_TOKEN",
    "HINTLINE_AUTH",
    "HINTLINE_OPEN_SIGNUP",
  ]) {
    if (!(key in env)) delete childEnv[key];
  }
  Object.assign(childEnv, { DATABASE_URL: dbUrl, NEXT_MANUAL_SIG_HANDLE: "true" });
  // The tests' MCP servers listen on loopback, which a workspace's server may reach only with this set; a test of the
  // refusal passes HINTLINE_MCP_ALLOW_PRIVATE: undefined.
  if (!("HINTLINE_MCP_ALLOW_PRIVATE" in env)) childEnv.HINTLINE_MCP_ALLOW_PRIVATE = "1";
  // stop() sends SIGTERM, which drains: a test's server gives a reply still running 2 s unless the test says otherwise.
  childEnv.HINTLINE_SHUTDOWN_GRACE_MS ??= "2000";
  const headers: Record<string, string> = env.HINTLINE_AUTH_TOKEN
    ? { authorization: `Bearer ${env.HINTLINE_AUTH_TOKEN}` }
    : {};
  // Accounts mode answers /api/model only to a signed-in user; the health check is open.
  const ready = env.HINTLINE_AUTH === "accounts" ? "/api/health" : "/api/model";
  const { url, child, output, exited } = await spawnServer({ port, env: childEnv, ready, headers });
  return {
    url,
    databaseUrl: dbUrl,
    logs: output,
    stop: async () => {
      child.kill("SIGTERM");
      await exited();
    },
    kill: async () => {
      child.kill("SIGKILL");
      await exited();
    },
    terminate: async () => {
      child.kill("SIGTERM");
      return exited();
    },
    signal: (name) => void child.kill(name),
  };
}

/** The environment that points the app at an OpenAI-compatible fake (no retries, so failures show at once). */
export function providerEnv(baseUrl: string): Record<string, string> {
  return { OPENAI_BASE_URL: baseUrl, OPENAI_API_KEY: "k", HINTLINE_MODEL: "fake-model", HINTLINE_MAX_RETRIES: "0" };
}

/**
 * Registers a server pointed at a fresh OpenAI fake for the current test file (started before all, stopped after
 * all). Read `fake` and `server` inside tests.
 */
export function providerServerForFile(extraEnv: Record<string, string> = {}): { fake: OpenAIFake; server: AppServer } {
  const holder = {} as { fake: OpenAIFake; server: AppServer };
  beforeAll(async () => {
    holder.fake = await startOpenAIFake();
    holder.server = await startAppServer({ env: { ...providerEnv(holder.fake.url), ...extraEnv } });
  });
  afterAll(async () => {
    await holder.server?.stop();
    await holder.fake?.close();
  });
  return holder;
}
