// Two `next start` instances on one PostgreSQL database (issue #17): a reply started on A is resumed on B with the
// identical stream, stopped from B, refused a second message from either, its events reach B's listeners, and when A
// dies (SIGKILL) mid-reply, B marks it incomplete once A's lease has run out and serves the conversation again. A
// connection added on A is offered and used on B within seconds, and leaves B when A deletes it (issue 46).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { createPostgresDatabase, migrate } from "../support/db-global-setup.ts";
import {
  chunkReader,
  getJson,
  listenToEvents,
  postChat,
  readChunks,
  type StreamChunk,
  stopReply,
  streamedText,
} from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { type ConversationView, expectApiError, messageText, pollUntil } from "./helpers.ts";

const postgres = process.env.TEST_POSTGRES_URL;
const LEASE_MS = 1_500;

const longText = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

const lasting = (chunks: StreamChunk[]) => chunks.filter((c) => c.transient !== true);

describe.skipIf(!postgres)("two instances on one PostgreSQL", () => {
  let fake: OpenAIFake;
  let a: AppServer;
  let b: AppServer;
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createPostgresDatabase(postgres!, `hintline_instances_${process.pid}`);
    migrate(databaseUrl);
    fake = await startOpenAIFake();
    // Both open the connection keys each seals (issue 46): one HINTLINE_SECRET.
    const env = {
      ...providerEnv(fake.url),
      HINTLINE_REPLY_LEASE_MS: String(LEASE_MS),
      HINTLINE_SECRET: "instances test secret",
    };
    [a, b] = await Promise.all([startAppServer({ env, databaseUrl }), startAppServer({ env, databaseUrl })]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await fake?.close();
  });

  const view = async (server: AppServer, id: string) =>
    (await getJson<ConversationView>(`${server.url}/api/conversations/${id}`)).body;

  it("serves its first replies on both instances at once: nothing is set up on first use that could race", async () => {
    // Both instances' first requests, together: each reply takes a lease in the same tables at the same moment.
    // The fake answers each with its own text, so a reply that lands in another conversation shows.
    fake.setDefault((request) => {
      const asked = JSON.stringify(request.body.messages).match(/hello (\d+)/)?.[1];
      return { text: `reply to hello ${asked}` };
    });
    try {
      const sent = Array.from({ length: 24 }, (_, i) =>
        postChat(i % 2 ? b.url : a.url, { conversationId: `first-${i}`, text: `hello ${i}` }),
      );
      // A refusal shows with its body.
      const statuses = await Promise.all(
        sent.map(async (r) =>
          (await r).status === 200 ? 200 : `${(await r).status}: ${await (await r).clone().text()}`,
        ),
      );
      expect(statuses, `the servers' logs:\n${a.logs().slice(-2_000)}\n${b.logs().slice(-2_000)}`).toEqual(
        Array(24).fill(200),
      );
      const replies = await Promise.all(sent.map(async (r) => readChunks(await r)));
      // Every reply streamed whole: its own text, a finish, no error and not marked incomplete.
      const streamed = replies.map((chunks) => ({
        text: streamedText(chunks),
        finished: chunks.at(-1)?.type === "finish",
        errors: chunks.filter((c) => c.type === "error").map((c) => c.errorText),
        incomplete: chunks.some(
          (c) => c.type === "message-metadata" && (c.messageMetadata as { status?: string }).status === "incomplete",
        ),
      }));
      expect(streamed).toEqual(
        replies.map((_, i) => ({ text: `reply to hello ${i}`, finished: true, errors: [], incomplete: false })),
      );
      // And stored as streamed, read on the other instance: the person's message and the complete reply.
      for (let i = 0; i < 24; i++) {
        const stored = await view(i % 2 ? a : b, `first-${i}`);
        expect(stored.messages.map((m) => [m.role, messageText(m), m.metadata?.status])).toEqual([
          ["user", `hello ${i}`, undefined],
          ["assistant", `reply to hello ${i}`, undefined],
        ]);
      }
    } finally {
      fake.reset();
    }
  });

  it("resumes on B the reply A is writing, chunk for chunk, and refuses a second message on either", async () => {
    fake.enqueue({ text: longText(60), chunkDelayMs: 20 });
    const original = await postChat(a.url, { conversationId: "across", messageId: "x1", text: "write" });
    expect(original.status).toBe(200);
    const reader = chunkReader(original);
    await reader.until((c) => c.type === "text-delta");
    const resumed = await fetch(`${b.url}/api/conversations/across/stream`);
    expect(resumed.status).toBe(200);
    await expectApiError(
      await postChat(b.url, { conversationId: "across", messageId: "x2", text: "me too" }),
      409,
      "conflict",
    );
    await expectApiError(
      await postChat(a.url, { conversationId: "across", messageId: "x3", text: "and me" }),
      409,
      "conflict",
    );
    const [originalChunks, replayed] = await Promise.all([reader.rest(), readChunks(resumed)]);
    expect(lasting(replayed)).toEqual(lasting(originalChunks));
    expect(streamedText(replayed)).toBe(longText(60));
    expect((await fetch(`${b.url}/api/conversations/across/stream`)).status).toBe(204);
    const stored = await view(b, "across");
    expect(stored.messages.map((m) => m.id)).toEqual(["x1", expect.any(String)]);
    expect(stored.messages[1]?.metadata?.status).toBeUndefined();
  });

  it("stops from B the reply A is writing", async () => {
    fake.enqueue({ text: longText(500), chunkDelayMs: 20 });
    const original = await postChat(a.url, { conversationId: "stop-across", messageId: "s1", text: "write a lot" });
    const reader = chunkReader(original);
    await reader.until((c) => c.type === "text-delta");
    const stopped = await stopReply(b.url, "stop-across");
    expect(stopped.status).toBe(200);
    expect(await stopped.json()).toEqual({ stopped: true });
    expect((await view(b, "stop-across")).messages[1]?.metadata?.status).toBe("incomplete");
    const rest = await reader.rest();
    expect(rest.find((c) => c.type === "message-metadata")?.messageMetadata).toMatchObject({ status: "incomplete" });
    await expectApiError(await stopReply(b.url, "stop-across"), 409, "conflict");
  });

  it("delivers A's change events to a listener on B", async () => {
    const listener = listenToEvents(b.url);
    try {
      await listener.opened;
      const task = await fetch(`${a.url}/api/conversations/across/tasks`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ subject: "from A" }),
      });
      expect(task.status).toBe(201);
      await listener.waitFor((e) => e.type === "tasks" && e.id === "across", "A's tasks event for across");
    } finally {
      listener.close();
    }
  });

  it("stops A's reply when B deletes its conversation, and A writes nothing into it afterwards", async () => {
    fake.enqueue({ text: longText(500), chunkDelayMs: 20 });
    const reader = chunkReader(
      await postChat(a.url, { conversationId: "delete-across", messageId: "d1", text: "write a lot" }),
    );
    await reader.until((c) => c.type === "text-delta");
    expect((await fetch(`${b.url}/api/conversations/delete-across`, { method: "DELETE" })).status).toBe(204);
    const chunks = await reader.rest();
    expect(chunks.find((c) => c.type === "message-metadata")?.messageMetadata).toMatchObject({ status: "incomplete" });
    await new Promise((resolve) => setTimeout(resolve, 500));
    for (const server of [a, b])
      await expectApiError(await fetch(`${server.url}/api/conversations/delete-across`), 404, "not_found");
    // The id is free again on either instance.
    fake.enqueue({ text: "new here" });
    const next = await postChat(a.url, { conversationId: "delete-across", messageId: "d1", text: "again" });
    expect(next.status).toBe(200);
    expect(streamedText(await readChunks(next))).toBe("new here");
    expect((await view(b, "delete-across")).messages.map(messageText)).toEqual(["again", "new here"]);
  });

  it("offers a connection added on A on B within seconds, with its key, and takes it away there when A deletes it", async () => {
    const lab = await startOpenAIFake({ models: [{ id: "lab-model", max_model_len: 4_096 }] });
    const models = async (server: AppServer) =>
      (await getJson<{ models: { id: string; contextWindow: number }[] }>(`${server.url}/api/models`)).body.models;
    try {
      const added = await fetch(`${a.url}/api/connections`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: "lab", kind: "openai-compatible", baseUrl: lab.url, apiKey: "lab-key-for-both" }),
      });
      expect(added.status).toBe(201);
      const offered = await pollUntil(
        () => models(b),
        (list) => list.some((m) => m.id === "lab/lab-model"),
        5_000,
        "B offering A's new connection",
      );
      expect(offered.find((m) => m.id === "lab/lab-model")?.contextWindow).toBe(4_096);
      lab.enqueue({ text: "Lab via B." });
      const response = await fetch(`${b.url}/api/chat`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          id: `inst-lab-${Date.now()}`,
          model: "lab/lab-model",
          message: { id: "inst-lab-1", role: "user", parts: [{ type: "text", text: "hi" }] },
        }),
      });
      expect(streamedText(await readChunks(response))).toBe("Lab via B.");
      expect(lab.requests.at(-1)!.headers.authorization).toBe("Bearer lab-key-for-both");
      expect((await fetch(`${a.url}/api/connections/lab`, { method: "DELETE" })).status).toBe(204);
      await pollUntil(
        () => models(b),
        (list) => !list.some((m) => m.id.startsWith("lab/")),
        5_000,
        "B dropping the deleted connection",
      );
    } finally {
      // Gone whatever failed: the instances started below on this database hold no HINTLINE_SECRET.
      await fetch(`${a.url}/api/connections/lab`, { method: "DELETE" }).catch(() => undefined);
      await lab.close();
    }
  });

  it("answers Stop on the reply of an instance that was killed truthfully: not stopped, settled as incomplete with why", async () => {
    const doomed = await startAppServer({
      env: { ...providerEnv(fake.url), HINTLINE_REPLY_LEASE_MS: String(LEASE_MS) },
      databaseUrl,
    });
    fake.enqueue({ text: longText(2000), chunkDelayMs: 20 });
    const reader = chunkReader(
      await postChat(doomed.url, { conversationId: "stop-dead", messageId: "k1", text: "write forever" }),
    );
    await reader.until((c) => c.type === "text-delta");
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await doomed.kill();
    const answer = await stopReply(b.url, "stop-dead");
    expect(answer.status).toBe(200);
    const body = (await answer.json()) as { stopped: boolean; settled?: string; reason?: string };
    expect(body).toEqual({
      stopped: false,
      settled: "incomplete",
      reason: expect.stringContaining("stopped responding"),
    });
    const stored = (await view(b, "stop-dead")).messages[1];
    expect(stored?.metadata).toMatchObject({ status: "incomplete", error: body.reason });
    expect(messageText(stored).length).toBeGreaterThan(0);
    await expectApiError(await stopReply(b.url, "stop-dead"), 409, "conflict");
  });

  it("marks the reply of an instance that died incomplete once its lease runs out, and serves the conversation on B", async () => {
    // The dying instance holds a longer lease (renewed every third of it), so that "B still counts it as live" is
    // asked well inside the lease even on a loaded machine: with 1.5 s, the lease could run out before B was asked.
    const leaseMs = 6_000;
    const doomed = await startAppServer({
      env: { ...providerEnv(fake.url), HINTLINE_REPLY_LEASE_MS: String(leaseMs) },
      databaseUrl,
    });
    fake.enqueue({ text: longText(2000), chunkDelayMs: 20 });
    const original = await postChat(doomed.url, { conversationId: "crash", messageId: "c1", text: "write forever" });
    const reader = chunkReader(original);
    await reader.until((c) => c.type === "text-delta");
    // Wait for a checkpoint (at most a second apart) so that the row holds some of the reply.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    await doomed.kill();
    // While the lease runs, B still counts the reply as live.
    await expectApiError(
      await postChat(b.url, { conversationId: "crash", messageId: "c2", text: "hello?" }),
      409,
      "conflict",
    );
    const settled = await pollUntil(
      () => view(b, "crash"),
      (c) => c.messages[1]?.metadata?.status === "incomplete",
      leaseMs * 4,
    );
    expect(settled.messages[1]?.metadata?.status).toBe("incomplete");
    expect(messageText(settled.messages[1]).length).toBeGreaterThan(0);
    fake.enqueue({ text: "I am B" });
    const next = await postChat(b.url, { conversationId: "crash", messageId: "c3", text: "still there?" });
    expect(next.status).toBe(200);
    expect(streamedText(await readChunks(next))).toBe("I am B");
    expect((await view(b, "crash")).messages.map((m) => m.id).slice(0, 3)).toEqual([
      "c1",
      settled.messages[1]!.id,
      "c3",
    ]);
  });
});
