// Two `next start` instances on one PostgreSQL database (issue #17): a reply started on A is resumed on B with the
// identical stream, stopped from B, refused a second message from either, its events reach B's listeners; and when a
// third instance dies (SIGKILL) mid-reply, A or B takes its runs over (issue 45: pg-boss fails the dead instance's
// jobs once their heartbeats stop) and finishes them — a reply, a background subagent, a call waiting for approval
// (answered on B) — or stops one that B was asked to stop. A connection added on A is offered and used on B within
// seconds, and leaves B when A deletes it (issue 46).
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
import { startEverythingHttp } from "../support/mcp-reference.ts";
import { type OpenAIFake, type RecordedRequest, startOpenAIFake } from "../support/openai-fake.ts";
import { type ConversationView, expectApiError, jsonRequest, messageText, pollUntil } from "./helpers.ts";

const postgres = process.env.TEST_POSTGRES_URL;
const LEASE_MS = 1_500;

const longText = (n: number) => Array.from({ length: n }, (_, i) => `word${i}`).join(" ");

const lasting = (chunks: StreamChunk[]) => chunks.filter((c) => c.transient !== true);

/** A subagent's model call (its system prompt names its agent). */
const isChild = (request: RecordedRequest) => JSON.stringify(request.body.messages?.[0] ?? "").includes("# Agent: ");
/** A model call that follows a tool's result. */
const afterTool = (request: RecordedRequest) =>
  (request.body.messages as Array<{ role: string }>).at(-1)?.role === "tool";
const CHILD_DONE = "Counted: 42 boxes.";
type Agent = { conversationId: string; status: string };

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
      // The take-over case's MCP server listens on 127.0.0.1.
      HINTLINE_MCP_ALLOW_PRIVATE: "1",
    };
    [a, b] = await Promise.all([startAppServer({ env, databaseUrl }), startAppServer({ env, databaseUrl })]);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await fake?.close();
  });

  const view = async (server: AppServer, id: string) =>
    (await getJson<ConversationView>(`${server.url}/api/conversations/${id}`)).body;

  /** An instance's own run queue, as its start-up line names it. */
  const engineQueue = (server: AppServer): string =>
    JSON.parse(
      server
        .logs()
        .split("\n")
        .find((line) => line.includes("the run engine is started")) ?? "{}",
    ).queue;

  /** Sends a run to the queue of an instance that never claims it (no instance of that name ever ran). */
  const queueRunNobodyClaims = async (run: { conversationId: string; replyId: string }): Promise<string> => {
    const { PgBoss } = await import("pg-boss");
    const boss = new PgBoss({
      connectionString: databaseUrl,
      max: 1,
      supervise: false,
      schedule: false,
      migrate: false,
      registerInstance: false,
    });
    await boss.start();
    const queue = `runs.ghost${process.pid}`;
    try {
      await boss.createQueue(queue, { heartbeatSeconds: 10, retryLimit: 0, deadLetter: "runs-recover" });
      await boss.send(queue, run);
    } finally {
      await boss.stop({ graceful: false });
    }
    return queue;
  };

  /** Which of `queues` still exist, and the states of the runs-recover jobs for `replyId`. */
  const runQueues = async (queues: string[], replyId: string) => {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      const left = await client.query<{ name: string }>("SELECT name FROM pgboss.queue WHERE name = ANY($1)", [queues]);
      const recovered = await client.query<{ state: string }>(
        "SELECT state FROM pgboss.job WHERE name = 'runs-recover' AND data->>'replyId' = $1",
        [replyId],
      );
      return { queues: left.rows.map((r) => r.name), recovered: recovered.rows.map((r) => r.state) };
    } finally {
      await client.end();
    }
  };

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

  it("takes over the runs of an instance that was killed: a reply finished on another instance, marked resumed, as a follower on B sees; one stopped from B, one deleted from B; a background child finished; a waiting approval answered on B", async () => {
    // The dying instance heartbeats its runs every 5 s (pg-boss's minimum heartbeat, 10 s); A or B takes them over.
    const [doomed, everything] = await Promise.all([
      startAppServer({
        env: { ...providerEnv(fake.url), HINTLINE_RUN_LEASE_MS: "10000", HINTLINE_MCP_ALLOW_PRIVATE: "1" },
        databaseUrl,
      }),
      startEverythingHttp(),
    ]);
    try {
      await killedInstanceCase(doomed, everything.url);
    } finally {
      await everything.stop();
    }
  }, 120_000);

  it("fences an instance paused past its lease: B takes the reply over and ends it, and A, woken, writes nothing more", async () => {
    const paused = await startAppServer({
      env: { ...providerEnv(fake.url), HINTLINE_RUN_LEASE_MS: "10000" },
      databaseUrl,
    });
    try {
      // A's answer is long: left running, it would end well after B's and be stored over it.
      let takenOver = false;
      fake.reset();
      fake.setDefault(() => (takenOver ? { text: "B ended it." } : { text: longText(1500), chunkDelayMs: 10 }));
      const onA = chunkReader(await postChat(paused.url, { conversationId: "paused", text: "write while paused" }));
      await onA.until((c) => c.type === "text-delta");
      await new Promise((resolve) => setTimeout(resolve, 1_200));
      takenOver = true;
      paused.signal("SIGSTOP");
      const ended = await pollUntil(
        () => view(b, "paused"),
        (v) => v.messages[1]?.metadata?.status === undefined && messageText(v.messages[1]) === "B ended it.",
        30_000,
        "B taking the paused instance's reply over and ending it",
      );
      expect(ended.messages[1]?.metadata?.resumes).toEqual([
        { at: expect.any(String), afterStep: 0, reason: "instance-lost" },
      ]);
      paused.signal("SIGCONT");
      // Woken, A reads the rest of its stream and would store it; fenced, it stops and tells its follower.
      const rest = await onA.rest();
      expect(rest.find((c) => c.type === "message-metadata")?.messageMetadata).toMatchObject({
        status: "incomplete",
        error: "Another instance took this reply over; it goes on there.",
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      const after = await view(b, "paused");
      expect(after.messages.map((m) => [m.role, m.metadata?.status])).toEqual([
        ["user", undefined],
        ["assistant", undefined],
      ]);
      expect(messageText(after.messages[1])).toBe("B ended it.");
      expect(after.run).toBeNull();
      // The conversation is free: its next message is answered (A's release left B's row alone, then B dropped it).
      fake.enqueue({ text: "Next." });
      expect(streamedText(await readChunks(await postChat(b.url, { conversationId: "paused", text: "and?" })))).toBe(
        "Next.",
      );
    } finally {
      paused.signal("SIGCONT");
      await paused.kill();
    }
  }, 90_000);

  /** On the doomed instance: a background child streaming (its parent's reply ended), and a call waiting for approval. */
  async function childAndApprovalOn(doomed: AppServer, mcpUrl: string) {
    const workspace = await getJson<{ id: string }>(`${a.url}/api/workspaces`, jsonRequest("POST", { name: "Doomed" }));
    const added = await fetch(
      `${a.url}/api/workspaces/${workspace.body.id}/mcp-servers`,
      jsonRequest("POST", { name: "everything", url: mcpUrl, approval: "ask" }),
    );
    expect(added.status).toBe(201);
    fake.setDefault((request) => {
      if (isChild(request)) return { text: longText(2000), chunkDelayMs: 20 };
      if (afterTool(request)) return { text: "Started it." };
      const asked = JSON.stringify(request.body.messages);
      const call = asked.includes("count in the background")
        ? {
            id: "spawn-dead",
            name: "AgentSpawn",
            arguments: { agent_id: "general-purpose", task: "count the boxes", timeout_seconds: 0 },
          }
        : { id: "echo-dead", name: "mcp__everything__echo", arguments: { message: "after the take-over" } };
      return { kind: "tools", calls: [call] };
    });
    await readChunks(await postChat(doomed.url, { conversationId: "bg-dead", text: "count in the background" }));
    const running = await pollUntil(
      () => view(doomed, "bg-dead") as Promise<ConversationView & { agents: Agent[] }>,
      (v) => v.agents[0]?.status === "running" && fake.requests.some(isChild),
      10_000,
      "the child running on the doomed instance",
    );
    const waiting = chunkReader(
      await fetch(
        `${doomed.url}/api/chat`,
        jsonRequest("POST", {
          id: "approve-dead",
          message: { id: "p1", role: "user", parts: [{ type: "text", text: "echo something" }] },
          workspaceId: workspace.body.id,
        }),
      ),
    );
    await waiting.until((c) => c.type === "tool-approval-request");
    await pollUntil(
      () => view(doomed, "approve-dead"),
      (v) => v.messages[1]?.parts.some((p) => p.state === "approval-requested") === true,
      10_000,
      "the approval stored",
    );
    expect((await view(doomed, "approve-dead")).run).toMatchObject({ status: "waiting", step: 1 });
    fake.reset();
    return { childId: running.agents[0]!.conversationId };
  }

  /** After the kill: the child finishes once on A or B and its parent hears of it; the approval is answered on B. */
  async function childAndApprovalTakenOver(childId: string) {
    const parent = await pollUntil(
      () => view(b, "bg-dead") as Promise<ConversationView & { agents: Agent[] }>,
      (v) => v.agents[0]?.status !== "running",
      30_000,
      "the child taken over and finished",
    );
    expect(parent.agents[0]).toMatchObject({ conversationId: childId, status: "done" });
    const child = await view(b, childId);
    expect(child.messages.map((m) => [m.role, m.metadata?.status])).toEqual([
      ["user", undefined],
      ["assistant", undefined],
    ]);
    expect(messageText(child.messages[1])).toBe(CHILD_DONE);
    expect(child.messages[1]?.metadata?.resumes).toEqual([
      { at: expect.any(String), afterStep: 0, reason: "instance-lost" },
    ]);
    expect(fake.requests.filter(isChild)).toHaveLength(1);

    const waiting = await pollUntil(
      () => view(b, "approve-dead"),
      (v) => (v.messages[1]?.metadata?.resumes as unknown[] | undefined)?.length === 1,
      30_000,
      "the waiting reply taken over",
    );
    expect(waiting.messages[1]?.metadata).toMatchObject({
      status: "streaming",
      resumes: [{ at: expect.any(String), afterStep: 1, reason: "instance-lost" }],
    });
    expect(waiting.run).toMatchObject({ id: waiting.messages[1]?.id, status: "waiting" });
    const answered = await fetch(
      `${b.url}/api/conversations/approve-dead/approvals/echo-dead`,
      jsonRequest("POST", { approved: true }),
    );
    expect(answered.status).toBe(200);
    const done = await pollUntil(
      () => view(b, "approve-dead"),
      (v) => v.messages[1]?.metadata?.status === undefined,
      15_000,
      "the approved call ran and the reply finished",
    );
    const echo = done.messages[1]?.parts.find((p) => p.type === "tool-mcp__everything__echo");
    expect(echo?.state).toBe("output-available");
    expect(JSON.stringify(echo?.output)).toContain("after the take-over");
    expect(messageText(done.messages[1])).toBe("Echoed.");
  }

  async function killedInstanceCase(doomed: AppServer, mcpUrl: string) {
    const { childId } = await childAndApprovalOn(doomed, mcpUrl);
    const resumedText = `Picked up again: ${longText(40)}`;
    fake.enqueue(...Array.from({ length: 3 }, () => ({ text: longText(2000), chunkDelayMs: 20 })));
    const crash = chunkReader(
      await postChat(doomed.url, { conversationId: "crash", messageId: "c1", text: "write forever" }),
    );
    const stopping = chunkReader(
      await postChat(doomed.url, { conversationId: "stop-dead", messageId: "k1", text: "write on until stopped" }),
    );
    const deleting = chunkReader(
      await postChat(doomed.url, { conversationId: "delete-dead", messageId: "e1", text: "write on until deleted" }),
    );
    await Promise.all([crash, stopping, deleting].map((reader) => reader.until((c) => c.type === "text-delta")));
    // Wait for a checkpoint (at most a second apart) so that the rows hold some of the replies.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const cutCall = JSON.stringify(
      fake.requests.findLast((r) => JSON.stringify(r.body.messages).includes("write forever"))?.body.messages,
    );
    const requestsBefore = fake.requests.length;
    // The resumed calls, in whichever order the instances taking over ask.
    fake.setDefault((request) => {
      if (isChild(request)) return { text: CHILD_DONE };
      if (afterTool(request)) return { text: "Echoed." };
      // The resumed reply lasts a few seconds: a follower on another instance checks every 2 s whether its reply was
      // taken over, and one that ended before it looked is not streamed to it (the follower ends; the client reloads).
      return JSON.stringify(request.body.messages).includes("write forever")
        ? { text: resumedText, chunkDelayMs: 100 }
        : { text: longText(2000), chunkDelayMs: 20 };
    });
    try {
      // A run sent to an instance that died before claiming it: its queue has a waiting job and no live instance.
      const ghostQueue = await queueRunNobodyClaims({ conversationId: "ghost", replyId: `ghost-${process.pid}` });
      const doomedQueue = engineQueue(doomed);
      const before = (await view(doomed, "crash")).run;
      expect(before).toMatchObject({ id: expect.any(String), status: "running", step: 1 });
      const killedAt = Date.now();
      await doomed.kill();
      // Its lease still names it until another instance takes it over: running, then recovering once its heartbeat is
      // overdue (the exact moment depends on the lease's renewals).
      const orphaned = (await view(b, "crash")).run;
      expect(orphaned).toMatchObject({ id: before?.id, startedAt: before?.startedAt });
      expect(["running", "recovering"]).toContain(orphaned?.status);
      // Until it is taken over (and after), the reply is live: no second message.
      await expectApiError(
        await postChat(b.url, { conversationId: "crash", messageId: "c2", text: "hello?" }),
        409,
        "conflict",
      );
      // A follower on B and Stop from B, both asked before the take-over (a follower's headers come with its first
      // chunk): the follower sees the reply go on, and the Stop reaches whichever instance took the reply over.
      const following = fetch(`${b.url}/api/conversations/crash/stream`);
      const stopped = stopReply(b.url, "stop-dead");
      const deleted = fetch(`${b.url}/api/conversations/delete-dead`, { method: "DELETE" });
      expect((await view(b, "stop-dead")).messages[1]?.metadata?.resumes).toBeUndefined();
      const follower = await following;
      expect(follower.status).toBe(200);
      const followed = await readChunks(follower);
      const takenOverMs = Date.now() - killedAt;

      // The killed reply goes on and ends once, its cut step redone whole: the text only once, the same input.
      const logs = [a, b].map((server) =>
        server
          .logs()
          .split("\n")
          .filter((l) => /run|resum|"level":[45]0/.test(l)),
      );
      expect(streamedText(followed), `the servers' logs:\n${logs.flat().join("\n").slice(-6_000)}`).toBe(resumedText);
      expect(followed.at(-1)?.type).toBe("finish");
      const finished = await pollUntil(
        () => view(b, "crash"),
        (c) => c.messages[1]?.metadata?.status === undefined,
        10_000,
        "the resumed reply stored as finished",
      );
      expect(finished.messages.map((m) => m.id)).toEqual(["c1", expect.any(String)]);
      expect(finished.run).toBeNull();
      expect(messageText(finished.messages[1])).toBe(resumedText);
      expect(finished.messages[1]?.metadata?.resumes).toEqual([
        { at: expect.any(String), afterStep: 0, reason: "instance-lost" },
      ]);
      const resumedCalls = fake.requests.slice(requestsBefore).map((r) => JSON.stringify(r.body.messages));
      expect(resumedCalls).toContain(cutCall);
      // pg-boss fails a job at most 10 s after its last heartbeat; taken and streaming again within lease + 5 s.
      expect(takenOverMs).toBeLessThan(20_000);

      // Stop waited for the take-over and stopped the reply there: truthfully stopped, stored incomplete.
      expect((await stopped).status).toBe(200);
      expect(await (await stopped).json()).toEqual({ stopped: true });
      const stoppedReply = (await view(b, "stop-dead")).messages[1];
      expect(stoppedReply?.metadata).toMatchObject({
        status: "incomplete",
        resumes: [{ at: expect.any(String), afterStep: 0, reason: "instance-lost" }],
      });
      await expectApiError(await stopReply(b.url, "stop-dead"), 409, "conflict");
      // DELETE, likewise: the reply stopped where it was taken over, then the conversation deleted.
      expect((await deleted).status).toBe(204);
      for (const server of [a, b])
        await expectApiError(await fetch(`${server.url}/api/conversations/delete-dead`), 404, "not_found");

      // The dead instance's queue, and the one whose run was never claimed, are swept: the waiting run handed to
      // runs-recover (and taken: its reply is not streaming, so nothing is resumed), the queues deleted.
      const swept = await pollUntil(
        () => runQueues([doomedQueue, ghostQueue], `ghost-${process.pid}`),
        (found) => found.queues.length === 0 && found.recovered.includes("completed"),
        20_000,
        "the queues of instances that are gone swept",
      );
      expect(swept).toEqual({ queues: [], recovered: ["completed"] });

      await childAndApprovalTakenOver(childId);
    } finally {
      fake.reset();
    }
    // Both conversations take the next message, on either instance.
    fake.enqueue({ text: "I am B" }, { text: "I am A" });
    const next = await postChat(b.url, { conversationId: "crash", messageId: "c3", text: "still there?" });
    expect(next.status).toBe(200);
    expect(streamedText(await readChunks(next))).toBe("I am B");
    const again = await postChat(a.url, { conversationId: "stop-dead", messageId: "k2", text: "and here?" });
    expect(streamedText(await readChunks(again))).toBe("I am A");
    // The adopted child's answer reaches its parent's next turn, once.
    fake.enqueue({ text: "Noted." });
    await readChunks(await postChat(b.url, { conversationId: "bg-dead", text: "any news?" }));
    expect(JSON.stringify(fake.requests.at(-1)?.body.messages)).toContain(CHILD_DONE);
    const told = (await view(a, "bg-dead")).messages
      .flatMap((m) => m.parts)
      .filter((p) => p.type === "data-hint" && JSON.stringify(p).includes(CHILD_DONE));
    expect(told).toHaveLength(1);
  }
});
