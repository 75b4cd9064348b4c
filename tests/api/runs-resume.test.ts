// Runs that outlive their process, on SQLite: the server is SIGKILLed while five replies are under way — one streaming
// text, one streaming after a TaskCreate it stored, one waiting for the person's approval, one inside an MCP write
// call (server-filesystem's edit_file reading a FIFO nobody writes: it cannot finish), and a background subagent's.
// The next start resumes each from its last finished step: the cut text is redone, never doubled; the task is not
// created twice; the approval is answered on the new server and its call runs; the write that may have happened is not
// run again — the model is told it was interrupted; the child finishes once and its answer reaches its parent. What
// the process left in the queue is not lost: a steer its cut step took is taken again, and a message queued behind a
// reply that had ended starts its turn.
import { execFileSync } from "node:child_process";
import Database from "better-sqlite3";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { getJson, postChat, streamedText } from "../support/chat-client.ts";
import { operatorConfig, stdioEntries } from "../support/mcp-reference.ts";
import { type OpenAIFake, type RecordedRequest, startOpenAIFake } from "../support/openai-fake.ts";
import { type ApiMessage, type ConversationView, jsonRequest, messageText, pollUntil, readUntil } from "./helpers.ts";

type Task = { id: string; subject: string };
const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(" ");
const slow = { text: long, chunkDelayMs: 15 };
const RESUMED = "Picked up where I was.";
const CHILD_DONE = "Counted: 42 boxes.";
const STEER = "Check the pipe first.";
const LEFT = "And then label the boxes.";
const childStream = { text: Array.from({ length: 2000 }, (_, i) => `box${i}`).join(" "), chunkDelayMs: 15 };

/** A subagent's model call (its system prompt names its agent). */
const isChild = (request: RecordedRequest) => JSON.stringify(request.body.messages?.[0] ?? "").includes("# Agent: ");
type Agent = { conversationId: string; status: string; endedAt?: string };
type ParentView = ConversationView & { agents: Agent[] };

/** The messages a request sent, as comparable JSON (the system prompt first). */
const sentMessages = (request: RecordedRequest | undefined) => JSON.stringify(request?.body.messages ?? null);
const toolResult = (request: RecordedRequest | undefined, callId: string) =>
  ((request?.body.messages ?? []) as Array<{ role: string; tool_call_id?: string; content?: unknown }>).find(
    (m) => m.role === "tool" && m.tool_call_id === callId,
  )?.content;

describe("SQLite: replies resume after the server is killed mid-reply", () => {
  let fake: OpenAIFake;
  let first: AppServer;
  let second: AppServer | undefined;
  let filesDir = "";
  let fifo = "";
  let env: Record<string, string> = {};
  const view = async (server: AppServer, id: string) =>
    (await getJson<ConversationView>(`${server.url}/api/conversations/${id}`)).body;
  const lastReply = async (server: AppServer, id: string) => (await view(server, id)).messages.at(-1) as ApiMessage;
  /** The requests the fake got for conversation turns (not titles or memory), in order. */
  const requestsBefore: { text?: string; task?: string; waiting?: string; writing?: string } = {};

  beforeAll(async () => {
    fake = await startOpenAIFake();
    const { dir } = operatorConfig({});
    const { file } = operatorConfig({ files: stdioEntries(dir).files });
    filesDir = path.join(dir, "files");
    fifo = path.join(filesDir, "pipe.txt");
    execFileSync("mkfifo", [fifo]);
    env = {
      ...providerEnv(fake.url),
      HINTLINE_MCP_CONFIG: file,
      HINTLINE_MCP_ALLOW_PRIVATE: "1",
      HINTLINE_CONTEXT_WINDOW: "32000",
    };
    first = await startAppServer({ env });
  });
  afterAll(async () => {
    await second?.stop();
    await fake?.close();
    // The killed server's filesystem server may still wait on the FIFO: a writer that does not block releases it.
    try {
      fs.closeSync(fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK));
    } catch {
      // no reader left
    }
  });

  it("five replies under way when the server is killed: each goes on once after the restart", async () => {
    // 5. A background child (spawned with timeout 0; its parent's reply ended) streaming when the server dies.
    fake.enqueue({
      kind: "tools",
      calls: [
        {
          id: "s1",
          name: "AgentSpawn",
          arguments: { agent_id: "general-purpose", task: "count the boxes", timeout_seconds: 0 },
        },
      ],
    });
    fake.setDefault((request) => (isChild(request) ? childStream : { text: "Started it in the background." }));
    const spawning = await postChat(first.url, {
      conversationId: "r-child",
      text: "count the boxes in the background",
    });
    await readUntil(spawning, (c) => c.type === "finish");
    const childId = (
      await pollUntil(
        () => view(first, "r-child") as Promise<ParentView>,
        (v) => v.agents[0]?.status === "running",
      )
    ).agents[0]!.conversationId;
    await pollUntil(
      () => view(first, childId),
      (v) => v.messages.at(-1)?.metadata?.status === "streaming" && fake.requests.some(isChild),
      10_000,
      "the child's reply streaming",
    );
    fake.reset();

    // 1. Streaming text.
    fake.enqueue(slow);
    const text = await postChat(first.url, { conversationId: "r-text", text: "tell me a long story" });
    await readUntil(text, (c) => c.type === "text-delta");
    requestsBefore.text = sentMessages(fake.requests.at(-1));

    // 2. A task stored, then streaming text.
    fake.enqueue(
      {
        kind: "tools",
        calls: [{ id: "t1", name: "TaskCreate", arguments: { subject: "Pack boxes", description: "For the move" } }],
      },
      slow,
    );
    const task = await postChat(first.url, { conversationId: "r-task", text: "add a task, then talk" });
    const taskChunks = await readUntil(task, (c) => c.type === "text-delta");
    expect(taskChunks.map((c) => c.type)).toContain("tool-output-available");
    requestsBefore.task = sentMessages(fake.requests.at(-1));

    // 3. Waiting for the person's approval (write_file asks under the operator server's read-only-auto).
    const target = path.join(filesDir, "approved.txt");
    fake.enqueue({
      kind: "tools",
      calls: [{ id: "w1", name: "mcp__files__write_file", arguments: { path: target, content: "after restart" } }],
    });
    const waiting = await postChat(first.url, { conversationId: "r-wait", text: "write the file" });
    await readUntil(waiting, (c) => c.type === "tool-approval-request");
    await pollUntil(
      () => lastReply(first, "r-wait"),
      (m) => m.parts.some((p) => p.state === "approval-requested"),
    );

    // 4. Inside a write call that cannot finish (approved, then edit_file blocks reading the FIFO).
    fake.enqueue({
      kind: "tools",
      calls: [
        {
          id: "e1",
          name: "mcp__files__edit_file",
          arguments: { path: fifo, edits: [{ oldText: "a", newText: "b" }] },
        },
      ],
    });
    const writing = await postChat(first.url, { conversationId: "r-write", text: "edit the pipe" });
    await readUntil(writing, (c) => c.type === "tool-approval-request");
    const approve = (server: AppServer, id: string, callId: string) =>
      fetch(`${server.url}/api/conversations/${id}/approvals/${callId}`, jsonRequest("POST", { approved: true }));
    expect((await approve(first, "r-write", "e1")).status).toBe(200);
    // The call's intent is stored before it runs.
    await pollUntil(
      () => lastReply(first, "r-write"),
      (m) => m.parts.some((p) => p.type === "tool-mcp__files__edit_file" && p.state === "input-available"),
      10_000,
      "the edit_file call stored as started",
    );
    // The runs as the conversation shows them: who writes, on which step, what each waits for.
    const textRun = (await view(first, "r-text")).run;
    expect(textRun).toEqual({
      id: (await lastReply(first, "r-text")).id,
      status: "running",
      step: 1,
      startedAt: expect.any(String),
      heartbeatAt: expect.any(String),
    });
    expect(Date.parse(textRun!.heartbeatAt)).toBeGreaterThanOrEqual(Date.parse(textRun!.startedAt));
    expect((await view(first, "r-wait")).run).toMatchObject({ status: "waiting", step: 1 });
    expect((await view(first, "r-task")).run).toMatchObject({ status: "running", step: 2 });
    const tasksBefore = (await getJson<Task[]>(`${first.url}/api/conversations/r-task/tasks`)).body;
    expect(tasksBefore.map((t) => t.subject)).toEqual(["Pack boxes"]);

    // 6. What a stopped process leaves in the queue: a steer that r-write's cut step took but never saved, and a
    // message queued behind a reply that ended while the last run drained (so its turn never started).
    const queueOn = (id: string, messageId: string, text: string, when: string) =>
      fetch(
        `${first.url}/api/conversations/${id}/queue`,
        jsonRequest("POST", { message: { id: messageId, role: "user", parts: [{ type: "text", text }] }, when }),
      );
    expect((await queueOn("r-write", "steer-cut", STEER, "next-step")).status).toBe(202);
    fake.enqueue(slow);
    await readUntil(await postChat(first.url, { conversationId: "r-idle", text: "a long answer" }), (c) => {
      return c.type === "text-delta";
    });
    expect((await queueOn("r-idle", "left-1", LEFT, "after-reply")).status).toBe(202);
    const writeReplyId = (await lastReply(first, "r-write")).id;

    await first.kill();
    const sqlite = new Database(first.databaseUrl.replace(/^file:/, ""));
    sqlite
      .prepare(`UPDATE "QueuedMessage" SET status = 'taken', "replyId" = ? WHERE id = 'steer-cut'`)
      .run(writeReplyId);
    sqlite.prepare(`UPDATE "Message" SET status = 'complete' WHERE "conversationId" = 'r-idle'`).run();
    sqlite.close();
    fake.reset();
    // The three replies that go on with a model call each get this answer (in whatever order they ask); the child its own.
    fake.setDefault((request) => ({ text: isChild(request) ? CHILD_DONE : RESUMED }));
    second = await startAppServer({ env, databaseUrl: first.databaseUrl });
    const server = second;

    for (const id of ["r-text", "r-task", "r-write"]) {
      await pollUntil(
        () => lastReply(server, id),
        (m) => m.metadata?.status === undefined || m.metadata?.status === "complete",
        15_000,
        `${id} resumed and finished`,
      );
    }
    const resumedRequests = fake.requests.filter(
      (r) => Array.isArray(r.body.tools) && !isChild(r) && !sentMessages(r).includes(LEFT),
    );
    expect(resumedRequests).toHaveLength(3);

    // 1. The cut step is redone whole: the same input as the call that was cut, and the text only once.
    const textReply = await lastReply(server, "r-text");
    expect(messageText(textReply)).toBe(RESUMED);
    expect(resumedRequests.some((r) => sentMessages(r) === requestsBefore.text)).toBe(true);
    expect(textReply.metadata?.resumes).toEqual([{ at: expect.any(String), afterStep: 0, reason: "restart" }]);
    expect(textReply.parts.filter((p) => p.type === "data-resumed")).toHaveLength(1);

    // 2. The stored TaskCreate is kept and not run again: one task; the resumed call extends the one that was cut.
    const taskReply = await lastReply(server, "r-task");
    expect(messageText(taskReply)).toBe(RESUMED);
    expect(taskReply.parts.filter((p) => p.type === "tool-TaskCreate")).toHaveLength(1);
    expect(taskReply.metadata?.resumes).toEqual([{ at: expect.any(String), afterStep: 1, reason: "restart" }]);
    expect(resumedRequests.some((r) => sentMessages(r) === requestsBefore.task)).toBe(true);
    const tasksAfter = (await getJson<Task[]>(`${server.url}/api/conversations/r-task/tasks`)).body;
    expect(tasksAfter.map((t) => t.subject)).toEqual(["Pack boxes"]);

    // 4. The write that may have happened is not run again: the model is told it was interrupted.
    const interrupted = resumedRequests.find((r) => toolResult(r, "e1") !== undefined);
    expect(String(toolResult(interrupted, "e1"))).toMatch(
      /ToolInterruptedError: mcp__files__edit_file was running when the server stopped, so it may or may not have taken effect\./,
    );
    const writeReply = await lastReply(server, "r-write");
    expect(writeReply.parts.find((p) => p.type === "tool-mcp__files__edit_file")?.state).toBe("output-error");

    // 6. The steer the cut step took is taken again by the resumed step, after the call's result, and delivered; the
    // message left queued behind a reply that had ended becomes its turn at the start.
    const sent = (interrupted?.body.messages ?? []) as Array<{
      role: string;
      tool_call_id?: string;
      content?: unknown;
    }>;
    const steerAt = sent.findIndex((m) => m.role === "user" && JSON.stringify(m.content).includes(STEER));
    expect(steerAt).toBeGreaterThan(sent.findIndex((m) => m.tool_call_id === "e1"));
    expect(writeReply.parts.filter((p) => p.type === "data-steer")).toHaveLength(1);
    const cancelSteer = await fetch(`${server.url}/api/conversations/r-write/queue/steer-cut`, { method: "DELETE" });
    expect(cancelSteer.status).toBe(409);
    expect(JSON.stringify(await cancelSteer.json())).toMatch(/was delivered/);
    const idle = await pollUntil(
      () => view(server, "r-idle"),
      (v) => v.messages.length === 4 && v.messages[3]?.metadata?.status === undefined,
      15_000,
      "the message left queued started its turn",
    );
    expect(messageText(idle.messages[2])).toBe(LEFT);
    expect(fake.requests.filter((r) => sentMessages(r).includes(LEFT) && Array.isArray(r.body.tools))).toHaveLength(1);

    // 3. The approval, answered on the new server, runs the call; the reply then goes on.
    const waitingReply = await lastReply(server, "r-wait");
    expect(waitingReply.metadata?.status).toBe("streaming");
    expect(waitingReply.metadata?.resumes).toHaveLength(1);
    expect((await view(server, "r-wait")).run).toMatchObject({ id: waitingReply.id, status: "waiting" });
    fake.enqueue({ text: "Written." });
    expect((await approve(server, "r-wait", "w1")).status).toBe(200);
    const written = await pollUntil(
      () => lastReply(server, "r-wait"),
      (m) => m.metadata?.status === undefined || m.metadata?.status === "complete",
      15_000,
      "the approved call ran and the reply finished",
    );
    expect(messageText(written)).toBe("Written.");
    expect((await view(server, "r-wait")).run).toBeNull();
    expect(fs.readFileSync(target, "utf8")).toBe("after restart");

    // 5. The child is resumed, not settled as stopped: it finishes once, and its parent is told its answer at its next
    // turn (nobody waits for it any more).
    const parentAfter = await pollUntil(
      () => view(server, "r-child") as Promise<ParentView>,
      (v) => v.agents[0]?.status !== "running",
      15_000,
      "the child resumed and finished",
    );
    expect(parentAfter.agents[0]).toMatchObject({ conversationId: childId, status: "done" });
    const childView = await view(server, childId);
    expect(childView.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messageText(childView.messages[1])).toBe(CHILD_DONE);
    expect(childView.messages[1]?.metadata?.resumes).toEqual([
      { at: expect.any(String), afterStep: 0, reason: "restart" },
    ]);
    expect(fake.requests.filter(isChild)).toHaveLength(1);
    fake.enqueue({ text: "Noted." });
    await readUntil(
      await postChat(server.url, { conversationId: "r-child", text: "any news?" }),
      (c) => c.type === "finish",
    );
    expect(JSON.stringify(fake.requests.at(-1)?.body.messages)).toContain(CHILD_DONE);
    const told = (await view(server, "r-child")).messages
      .flatMap((m) => m.parts)
      .filter((p) => p.type === "data-hint" && JSON.stringify(p).includes(CHILD_DONE));
    expect(told).toHaveLength(1);

    // A follower of a resumed conversation sees it whole, and the conversation takes the next message.
    fake.enqueue({ text: "next one" });
    const next = await postChat(server.url, { conversationId: "r-text", text: "thanks" });
    expect(next.status).toBe(200);
    expect(streamedText(await readUntil(next, (c) => c.type === "finish"))).toBe("next one");
  });
});
