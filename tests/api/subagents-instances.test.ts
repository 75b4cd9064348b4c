// Subagents on two instances of one PostgreSQL database (issue #26, faults): a background child runs on the instance
// where it was spawned; the other instance shows it running in the parent's view and its own list, and Stop sent
// there stops it (forwarded to the instance running it); the parent is told once, on either instance.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson, stopReply } from "../support/chat-client.ts";
import { createPostgresDatabase, migrate } from "../support/db-global-setup.ts";
import { pollUntil } from "./helpers.ts";

type Agent = { agentKey: string; conversationId: string; status: string; endedAt?: string };
type View = {
  agents: Agent[];
  messages: Array<{
    role: string;
    parts: Array<{ type: string; data?: { source?: { sublabel?: string }; text?: string } }>;
    metadata?: { status?: string };
  }>;
};

const postgres = process.env.TEST_POSTGRES_URL;

// Two instances need one shared database: PostgreSQL only (SQLite is one instance by design).
describe.skipIf(!postgres)("PostgreSQL, two instances: a subagent seen and stopped from the other instance", () => {
  let a: AppServer;
  let b: AppServer;
  beforeAll(async () => {
    const databaseUrl = await createPostgresDatabase(postgres!, `hintline_subagents_two_${process.pid}`);
    migrate(databaseUrl);
    const env = { HINTLINE_DEMO_WORD_DELAY_MS: "20" };
    [a, b] = await Promise.all([startAppServer({ env, databaseUrl }), startAppServer({ env, databaseUrl })]);
  });
  afterAll(async () => {
    await b?.stop();
    await a?.stop();
  });
  const view = async (server: AppServer, id: string) =>
    (await getJson<View>(`${server.url}/api/conversations/${id}`)).body;

  it("shows the child running on B while it runs on A; Stop on B stops it; the parent is told once", async () => {
    await chat(a.url, { conversationId: "two-sa", text: "delegate in background: write 3000 words about deltas" });
    const running = await pollUntil(
      () => view(b, "two-sa"),
      (v) => v.agents[0]?.status === "running",
      20_000,
      "B sees the child running",
    );
    const childId = running.agents[0]!.conversationId;
    await pollUntil(
      () => view(b, childId),
      (v) => v.messages.length >= 2,
      20_000,
      "the child's reply started",
    );
    const listed = (await getJson<{ agents: Agent[] }>(`${b.url}/api/conversations/two-sa/agents`)).body.agents;
    expect(listed.map((agent) => agent.status)).toEqual(["running"]);

    expect((await stopReply(b.url, childId)).status).toBe(200);
    const stopped = await pollUntil(
      () => view(a, "two-sa"),
      (v) => v.agents[0]?.status === "stopped",
      30_000,
      "A records the child as stopped",
    );
    expect(stopped.agents[0]!.endedAt).toBeDefined();
    const child = await view(b, childId);
    expect(child.messages.at(-1)!.metadata?.status).toBe("incomplete");

    // Told once: the next reply on B carries one Subagents hint, the one after on A none.
    await chat(b.url, { conversationId: "two-sa", text: "hello" });
    await chat(a.url, { conversationId: "two-sa", text: "hello again" });
    const hints = (await view(a, "two-sa")).messages
      .flatMap((m) => m.parts)
      .filter((p) => p.type === "data-hint" && p.data?.source?.sublabel === "Subagents");
    expect(hints).toHaveLength(1);
    expect(hints[0]!.data!.text).toContain("stopped");
  });
});
