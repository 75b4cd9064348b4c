// Operations on PostgreSQL, on a server of its own (this test stops and starts it): GET /api/health turns 503 naming
// the database while it is down and 200 once it is back, and a failure the server survives — the reply lease's
// renewal with the database gone — is logged with its cause instead of being swallowed.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, freePort, providerEnv, startAppServer } from "../support/app-server.ts";
import { chunkReader, listenToEvents, postChat } from "../support/chat-client.ts";
import { migrate } from "../support/db-global-setup.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { pollUntil } from "./helpers.ts";

const root = path.resolve(import.meta.dirname, "../..");
const pgTemp = (command: "start" | "stop", port: number) =>
  execFileSync("bash", [path.join(root, "scripts/pg-temp.sh"), command, String(port)], { encoding: "utf8" }).trim();
const hasPostgres = Boolean(process.env.TEST_POSTGRES_URL) && fs.existsSync("/usr/lib/postgresql");

describe.skipIf(!hasPostgres)("health and survived failures on PostgreSQL", () => {
  let port: number;
  let fake: OpenAIFake;
  let server: AppServer;

  beforeAll(async () => {
    port = await freePort();
    const url = pgTemp("start", port);
    migrate(url);
    fake = await startOpenAIFake();
    server = await startAppServer({
      env: { ...providerEnv(fake.url), HINTLINE_REPLY_LEASE_MS: "900" },
      databaseUrl: url,
    });
  }, 120_000);

  afterAll(async () => {
    await server?.kill();
    await fake?.close();
    if (port) {
      pgTemp("stop", port);
      fs.rmSync(`/tmp/hintline-pg-${port}`, { recursive: true, force: true });
    }
  });

  const health = async () => {
    const response = await fetch(`${server.url}/api/health`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  it("turns 503 when the database goes, logs the lease renewal that failed, and 200 when it returns", async () => {
    expect(await health()).toMatchObject({ status: 200, body: { status: "ok", database: "ok", migrations: "ok" } });
    fake.enqueue({ text: Array.from({ length: 3000 }, (_, i) => `w${i}`).join(" "), chunkDelayMs: 20 });
    const reply = await postChat(server.url, { conversationId: "lease", text: "write on" });
    expect(reply.status).toBe(200);
    const reader = chunkReader(reply);
    await reader.until((c) => c.type === "text-delta");
    pgTemp("stop", port);
    const stoppedAt = Date.now();
    try {
      const down = await health();
      expect(down).toMatchObject({
        status: 503,
        body: { status: "unavailable", database: "unreachable", problems: ["the database is unreachable"] },
      });
      // Renewed every 300 ms: the failures are in the log, at warn, with their cause.
      const line = await pollUntil(
        async () =>
          server
            .logs()
            .split("\n")
            .find((l) => l.includes("reply lease renewal failed")),
        Boolean,
        5_000,
      );
      expect(line).toBeDefined();
      expect(JSON.parse(line!)).toMatchObject({ level: 40, err: { message: expect.any(String) } });
    } finally {
      // Down for longer than the first reconnect attempt of the LISTEN connection (1 s after it was lost).
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, stoppedAt + 3_000 - Date.now())));
      pgTemp("start", port);
    }
    const back = await pollUntil(health, (h) => h.status === 200, 15_000);
    expect(back).toMatchObject({ status: 200, body: { status: "ok", database: "ok" } });
    void reader.rest().catch(() => {});
    // Change events travel through LISTEN/NOTIFY: the LISTEN connection came back by itself.
    const listener = listenToEvents(server.url);
    try {
      await listener.opened;
      const delivered = await pollUntil(
        async () => {
          await fetch(`${server.url}/api/conversations/lease`, {
            method: "PATCH",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ title: "Back" }),
          });
          return listener.events.some((e) => e.type === "conversation" && e.id === "lease");
        },
        Boolean,
        15_000,
      );
      expect(delivered).toBe(true);
    } finally {
      listener.close();
    }
  });
});
