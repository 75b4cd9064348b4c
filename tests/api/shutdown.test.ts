// Graceful shutdown with two instances on one PostgreSQL: SIGTERM during a reply on A lets it finish within the grace
// (or, after it, hands it over: B takes it over at once from the run engine's recovery queue and finishes it), refuses
// new replies meanwhile with 503 and Retry-After, closes A's event streams, exits 0, and B serves throughout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chunkReader, getJson, postChat, readChunks, streamedText } from "../support/chat-client.ts";
import { createPostgresDatabase, migrate } from "../support/db-global-setup.ts";
import { type OpenAIFake, type RecordedRequest, startOpenAIFake } from "../support/openai-fake.ts";
import { type ConversationView, expectApiError, messageText, pollUntil } from "./helpers.ts";

const postgres = process.env.TEST_POSTGRES_URL;
const longText = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");
/** A subagent's model call (its system prompt names its agent). */
const isChild = (request: RecordedRequest) => JSON.stringify(request.body.messages?.[0] ?? "").includes("# Agent: ");
const hasToolResult = (request: RecordedRequest) =>
  (request.body.messages as Array<{ role: string }>).some((m) => m.role === "tool");
const CHILD_DONE = "Counted: 42 boxes.";
type Agent = { conversationId: string; status: string };

/** An open GET /api/events stream; `ended` settles with "closed" when the server ends it cleanly. */
function openEvents(url: string): { opened: Promise<void>; ended: Promise<"closed" | "reset"> } {
  let markOpened!: () => void;
  const opened = new Promise<void>((resolve) => (markOpened = resolve));
  const ended = (async () => {
    try {
      const response = await fetch(`${url}/api/events`);
      const reader = response.body!.getReader();
      for (;;) {
        const { done } = await reader.read();
        markOpened();
        if (done) return "closed" as const;
      }
    } catch {
      return "reset" as const;
    }
  })();
  return { opened, ended };
}

describe.skipIf(!postgres)("SIGTERM with two instances on one PostgreSQL", () => {
  let fake: OpenAIFake;
  let b: AppServer;
  let databaseUrl: string;
  const started: AppServer[] = [];
  // The default 15 s lease: B taking the next message at once shows that A released it.
  const instance = async (graceMs: number) => {
    const server = await startAppServer({
      env: { ...providerEnv(fake.url), HINTLINE_SHUTDOWN_GRACE_MS: String(graceMs) },
      databaseUrl,
    });
    started.push(server);
    return server;
  };

  beforeAll(async () => {
    databaseUrl = await createPostgresDatabase(postgres!, `hintline_shutdown_${process.pid}`);
    migrate(databaseUrl);
    fake = await startOpenAIFake();
    b = await instance(2_000);
  }, 120_000);

  afterAll(async () => {
    await Promise.all(started.map((s) => s.kill()));
    await fake?.close();
  });

  const view = async (id: string) => (await getJson<ConversationView>(`${b.url}/api/conversations/${id}`)).body;

  it("lets a running reply finish, refuses new ones with 503 and Retry-After meanwhile, and exits 0", async () => {
    const a = await instance(20_000);
    const events = openEvents(a.url);
    await events.opened;
    fake.enqueue({ text: longText(80), chunkDelayMs: 25 });
    const original = await postChat(a.url, { conversationId: "drain", messageId: "d1", text: "write" });
    expect(original.status).toBe(200);
    const reader = chunkReader(original);
    await reader.until((c) => c.type === "text-delta");
    const exit = a.terminate();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const refused = await postChat(a.url, { conversationId: "elsewhere", text: "hello" });
    expect(refused.headers.get("retry-after")).toBe("5");
    await expectApiError(refused, 503, "unavailable");
    const health = await fetch(`${a.url}/api/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ draining: true, problems: ["the server is shutting down"] });
    // B serves meanwhile.
    fake.enqueue({ text: "B here" });
    const onB = await postChat(b.url, { conversationId: "meanwhile", text: "hello" });
    expect(onB.status).toBe(200);
    expect(streamedText(await readChunks(onB))).toBe("B here");
    // A's reply runs to its end, and is stored whole.
    const chunks = await reader.rest();
    expect(streamedText(chunks)).toBe(longText(80));
    expect(await exit).toBe(0);
    expect(await events.ended).toBe("closed");
    const stored = await view("drain");
    expect(stored.messages.map((m) => m.id)[0]).toBe("d1");
    expect(stored.messages[1]?.metadata?.status).toBeUndefined();
    expect(messageText(stored.messages[1])).toBe(longText(80));
    expect(a.logs()).toMatch(/"msg":"shut down"/);
  });

  it("hands the replies still running after the grace over, a subagent's too: B takes each over at once and finishes it, marked resumed", async () => {
    const a = await instance(1_000);
    // Before the restart: the reply writes on, the parent spawns a child and waits for it, the child writes on. After
    // it, on B: the cut steps are redone, the parent told its wait was interrupted, the child finishing with its count.
    let handedOver = false;
    fake.reset();
    fake.setDefault((request) => {
      if (isChild(request)) return handedOver ? { text: CHILD_DONE } : { text: longText(3000), chunkDelayMs: 20 };
      // The resumed call carries the interrupted spawn's result (and the child's answer, once it finished first).
      if (JSON.stringify(request.body.messages).includes("count in the foreground") && !hasToolResult(request))
        return handedOver
          ? { text: "Unexpected second spawn." }
          : {
              kind: "tools",
              calls: [{ id: "spawn-1", name: "AgentSpawn", arguments: { agent_id: "general-purpose", task: "count" } }],
            };
      return handedOver ? { text: "Picked up on B." } : { text: longText(3000), chunkDelayMs: 20 };
    });
    const parent = chunkReader(await postChat(a.url, { conversationId: "kid", text: "count in the foreground" }));
    await parent.until((c) => c.type === "tool-input-available");
    const original = await postChat(a.url, { conversationId: "cut", messageId: "c1", text: "write forever" });
    const reader = chunkReader(original);
    await reader.until((c) => c.type === "text-delta");
    const childId = (
      await pollUntil(
        () => view("kid") as Promise<ConversationView & { agents: Agent[] }>,
        (v) => v.agents[0]?.status === "running" && fake.requests.some(isChild),
        10_000,
        "the child writing on A",
      )
    ).agents[0]!.conversationId;
    handedOver = true;
    const handedAt = Date.now();
    const exit = a.terminate();
    // The browser's stream on A ends saying the reply goes on.
    const chunks = await reader.rest();
    expect(chunks.find((c) => c.type === "message-metadata")?.messageMetadata).toMatchObject({
      status: "incomplete",
      error: "The server is restarting; the reply goes on when it is back.",
    });
    expect(await exit).toBe(0);
    // Not stored as stopped by the restart, nor settled as stale by a view read before the take-over (its lease row is
    // kept for the adopter): B resumes it from the recovery queue, well before a lease would run out.
    const done = await pollUntil(
      () => view("cut"),
      (c) =>
        c.messages[1]?.metadata?.status === undefined &&
        ((c.messages[1]?.metadata as { resumes?: unknown[] } | undefined)?.resumes?.length ?? 0) > 0,
      20_000,
      "B finishing the handed-over reply",
    );
    expect(Date.now() - handedAt).toBeLessThan(15_000);
    const resumes = (done.messages[1]?.metadata as { resumes?: Array<{ reason: string }> } | undefined)?.resumes;
    expect(resumes?.map((r) => r.reason)).toEqual(["instance-lost"]);
    expect(done.messages[1]?.metadata?.error).toBeUndefined();
    // The step that was cut is redone on B from the last finished one: its text is B's call's answer.
    expect(messageText(done.messages[1])).toBe("Picked up on B.");
    // Then B takes the conversation's next message.
    fake.enqueue({ text: "I am B" });
    const next = await postChat(b.url, { conversationId: "cut", messageId: "c3", text: "still there?" });
    expect(next.status).toBe(200);
    expect(streamedText(await readChunks(next))).toBe("I am B");
    expect(a.logs()).toMatch(/"outcome":"stopped","stopReason":"shutdown".*"msg":"reply"/);

    // The child is not stored as stopped by the restart: B goes on with it in the background, once; the parent's wait
    // is told it was cut (no second child), and the child's answer is its parent's to hear.
    const kid = await pollUntil(
      () => view("kid") as Promise<ConversationView & { agents: Agent[] }>,
      (v) => v.agents[0]?.status !== "running" && v.messages[1]?.metadata?.status === undefined,
      20_000,
      "B finishing the child and its parent",
    );
    expect(kid.agents).toMatchObject([{ conversationId: childId, status: "done" }]);
    const child = await view(childId);
    expect(messageText(child.messages[1])).toBe(CHILD_DONE);
    expect(child.messages[1]?.metadata).toMatchObject({ resumes: [{ reason: "instance-lost" }] });
    expect(child.messages[1]?.metadata?.error).toBeUndefined();
    expect(messageText(kid.messages[1])).toBe("Picked up on B.");
    const spawn = kid.messages[1]?.parts.find((p) => p.type === "tool-AgentSpawn");
    expect(spawn).toMatchObject({ state: "output-error", errorText: expect.stringMatching(/ToolInterruptedError/) });
    expect(fake.requests.filter(isChild)).toHaveLength(2);
  });
});
