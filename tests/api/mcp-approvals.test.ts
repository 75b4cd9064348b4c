// Approvals of MCP calls through the OpenAI fake, on SQLite and PostgreSQL: a call that needs the person is stored as
// a tool part in state approval-requested (a reload shows it), waits, and is answered by POST
// /api/conversations/:id/approvals/:toolCallId — approved (it runs, its result reaches the provider), denied (the
// model gets the person's reason as a tool error), remembered ("Always allow this tool"), or left when the reply is
// stopped (then settled: not run, shown denied with why, never waiting again). On PostgreSQL another instance answers
// (and stops) and the reply goes on where it waits. The servers trace to an OTLP receiver: the approved call, which the
// reply loop runs itself, has its tool span under the reply's.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chunkReader, getJson, stopReply } from "../support/chat-client.ts";
import { type McpHttpServer, operatorConfig, startEverythingHttp, stdioEntries } from "../support/mcp-reference.ts";
import { type FakeReply, type OpenAIFake, startOpenAIFake, toolResultText } from "../support/openai-fake.ts";
import { type OtlpReceiver, startOtlpReceiver } from "../support/otlp-receiver.ts";
import {
  type ApiMessage,
  countRows,
  databaseKinds,
  expectApiError,
  jsonRequest,
  pollUntil,
  userMessage,
} from "./helpers.ts";

const kinds = databaseKinds("mcpapprovals");

describe.each(kinds)("$name: MCP approvals", ({ name: kind, databaseUrl }) => {
  let fake: OpenAIFake;
  let server: AppServer;
  let other: AppServer | undefined;
  let everything: McpHttpServer;
  let receiver: OtlpReceiver;
  let filesDir = "";
  let workspaceId = "";
  let seq = 0;
  const api = (p: string, base = server.url) => `${base}/api${p}`;

  beforeAll(async () => {
    everything = await startEverythingHttp();
    const { dir } = operatorConfig({});
    const { file } = operatorConfig({ files: stdioEntries(dir).files });
    filesDir = path.join(dir, "files");
    fake = await startOpenAIFake();
    receiver = await startOtlpReceiver();
    const url = await databaseUrl();
    const env = {
      ...providerEnv(fake.url),
      HINTLINE_MCP_CONFIG: file,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_BSP_SCHEDULE_DELAY: "50",
    };
    server = await startAppServer({ databaseUrl: url, env });
    // A second instance on the same PostgreSQL database answers approvals the first one waits for.
    if (kind === "PostgreSQL") other = await startAppServer({ databaseUrl: server.databaseUrl, env });
    workspaceId = (await getJson<{ id: string }>(api("/workspaces"), jsonRequest("POST", { name: "Approvals" }))).body
      .id;
    const added = await fetch(
      api(`/workspaces/${workspaceId}/mcp-servers`),
      jsonRequest("POST", { name: "everything", url: everything.url, approval: "ask" }),
    );
    expect(added.status).toBe(201);
  });
  afterAll(async () => {
    await other?.stop();
    await server?.stop();
    await fake?.close();
    await everything?.stop();
    await receiver?.close();
  });

  /** Starts a reply whose first step makes `call`; resolves once the call waits, with the reader and the call's id. */
  async function waitingReply(
    call: { name: string; arguments: unknown },
    after: FakeReply[] = [{ text: "Finished." }],
  ) {
    fake.reset();
    const callId = `c${seq}`;
    fake.enqueue({ kind: "tools", calls: [{ id: callId, ...call }] }, ...after);
    const id = `appr-${Date.now().toString(36)}-${seq++}`;
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", { id, message: userMessage(`m-${id}`, "go"), workspaceId }),
    );
    expect(response.status).toBe(200);
    const reader = chunkReader(response);
    await reader.until((c) => c.type === "tool-approval-request");
    const request = reader.chunks.find((c) => c.type === "tool-approval-request")!;
    expect(request.toolCallId).toBe(callId);
    return { id, callId, reader };
  }
  const answer = (id: string, callId: string, body: unknown, base = server.url) =>
    fetch(api(`/conversations/${id}/approvals/${callId}`, base), jsonRequest("POST", body));

  it("a call that needs approval waits as a stored approval-requested part; approved, it runs and its result reaches the provider", async () => {
    const target = path.join(filesDir, "approved.txt");
    const { id, callId, reader } = await waitingReply({
      name: "mcp__files__write_file",
      arguments: { path: target, content: "yes" },
    });
    // A reload (another tab) shows the waiting call.
    const stored = await pollUntil(
      () => getJson<{ messages: ApiMessage[] }>(api(`/conversations/${id}`)),
      ({ body }) =>
        (body.messages.at(-1)?.parts ?? []).some(
          (p) => p.type === "tool-mcp__files__write_file" && p.state === "approval-requested",
        ),
    );
    expect(stored.body.messages.at(-1)?.metadata?.status).toBe("streaming");
    expect(fake.requests).toHaveLength(1);
    expect(fs.existsSync(target)).toBe(false);
    const answered = await answer(id, callId, { approved: true }, other?.url);
    expect(answered.status).toBe(200);
    expect(await answered.json()).toEqual({ toolCallId: callId, status: "approved" });
    const chunks = await reader.rest();
    expect(chunks.some((c) => c.type === "tool-approval-response" && c.approved === true)).toBe(true);
    expect(fs.readFileSync(target, "utf8")).toBe("yes");
    expect(toolResultText(fake.requests[1], callId)).toMatch(
      /^Successfully wrote to .*approved\.txt\n\(Tool call #1 for 'mcp__files__write_file' in this conversation\.\)$/,
    );
    const { body } = await getJson<{ messages: ApiMessage[] }>(api(`/conversations/${id}`));
    const part = body.messages.at(-1)!.parts.find((p) => p.type === "tool-mcp__files__write_file")!;
    expect(part).toMatchObject({ state: "output-available", approval: { approved: true } });
    await expectApiError(await answer(id, callId, { approved: false }), 409, "conflict");
    // The call ran after the model call that asked for it, by the reply loop itself: traced under the reply all the same.
    const spans = await pollUntil(
      async () => receiver.spans,
      (all) => all.some((s) => s.attributes["gen_ai.conversation.id"] === id),
      10_000,
      "the reply's span was sent",
    );
    const reply = spans.find((s) => s.attributes["gen_ai.conversation.id"] === id)!;
    const call = spans.find((s) => s.attributes["gen_ai.tool.call.id"] === callId && s.traceId === reply.traceId);
    expect(call).toMatchObject({ name: "execute_tool mcp__files__write_file", parentSpanId: reply.spanId });
    expect(call!.attributes).toMatchObject({
      "hintline.tool.outcome": "ok",
      "gen_ai.execute_tool.duration": expect.any(Number),
    });
  });

  it("denied, the model gets the person's reason as a tool error and nothing runs", async () => {
    const target = path.join(filesDir, "denied.txt");
    const { id, callId, reader } = await waitingReply({
      name: "mcp__files__write_file",
      arguments: { path: target, content: "no" },
    });
    expect((await answer(id, callId, { approved: false, reason: "Not in that folder" })).status).toBe(200);
    await reader.rest();
    const error = toolResultText(fake.requests[1], callId);
    expect(error).toMatch(
      /^ApprovalDeniedError: The person denied this call of mcp__files__write_file, so it was not run\. Their reason: "Not in that folder"/,
    );
    expect(error).toMatch(/What to do: .*\n\(Tool call #1 for 'mcp__files__write_file' in this conversation\.\)$/);
    expect(fs.existsSync(target)).toBe(false);
  });

  it("'Always allow this tool' is stored on the workspace's server: the next call runs without asking", async () => {
    const { id, callId, reader } = await waitingReply({
      name: "mcp__everything__echo",
      arguments: { message: "first" },
    });
    expect((await answer(id, callId, { approved: true, remember: "tool" })).status).toBe(200);
    await reader.rest();
    expect(toolResultText(fake.requests[1], callId)).toMatch(/^Echo: first/);
    const { body } = await getJson<{ alwaysAllow: string[] }>(api(`/workspaces/${workspaceId}/mcp-servers/everything`));
    expect(body.alwaysAllow).toEqual(["echo"]);
    fake.reset();
    fake.enqueue(
      { kind: "tools", calls: [{ id: "again", name: "mcp__everything__echo", arguments: { message: "second" } }] },
      { text: "ok" },
    );
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", { id: `appr-again-${seq++}`, message: userMessage(`m-again-${seq}`, "go"), workspaceId }),
    );
    const chunks = await chunkReader(response).rest();
    expect(chunks.some((c) => c.type === "tool-approval-request")).toBe(false);
    expect(toolResultText(fake.requests[1], "again")).toMatch(/^Echo: second/);
  });

  it("a call still waiting when its reply is stopped is settled: not run, stored as denied with why, its answer a 409", async () => {
    const target = path.join(filesDir, "stopped.txt");
    const { id, callId, reader } = await waitingReply({
      name: "mcp__files__write_file",
      arguments: { path: target, content: "never" },
    });
    const stopped = await stopReply(other?.url ?? server.url, id);
    expect(stopped.status).toBe(200);
    const chunks = await reader.rest();
    expect(chunks.some((c) => c.type === "tool-output-denied" && c.toolCallId === callId)).toBe(true);
    const { body } = await getJson<{ messages: ApiMessage[] }>(api(`/conversations/${id}`));
    const reply = body.messages.at(-1)!;
    expect(reply.metadata?.status).toBe("incomplete");
    const part = reply.parts.find((p) => p.type === "tool-mcp__files__write_file");
    expect(part).toMatchObject({
      state: "output-denied",
      approval: { approved: false, reason: expect.stringMatching(/stopped before .* answered/) },
    });
    expect(await expectApiError(await answer(id, callId, { approved: true }), 409, "conflict")).toMatch(
      /was cancelled: .*stopped/,
    );
    expect(await countRows(server.databaseUrl, "ToolApproval", "status", "pending")).toBe(0);
    expect(await countRows(server.databaseUrl, "ToolApproval", "status", "cancelled")).toBe(1);
    expect(fs.existsSync(target)).toBe(false);
  });

  it("bad answers are 4xx naming the problem and change nothing; the call still waits", async () => {
    const { id, callId, reader } = await waitingReply({
      name: "mcp__files__write_file",
      arguments: { path: path.join(filesDir, "bad.txt"), content: "z" },
    });
    const cases: [Response, number, RegExp][] = [
      [await answer(id, callId, {}), 400, /approved/],
      [await answer(id, callId, { approved: "yes" }), 400, /approved: must be true or false/],
      [await answer(id, callId, { approved: false, remember: "tool" }), 400, /remember goes with an approval/],
      [await answer(id, callId, { approved: true, remember: "server" }), 400, /remember/],
      [await answer(id, callId, { approved: true, reason: "x".repeat(1001) }), 400, /reason: must be at most 1,000/],
      [await answer(id, "no-such-call", { approved: true }), 404, /no tool call no-such-call waiting/],
      [
        await answer(id, callId, { approved: true, remember: "tool" }),
        409,
        /only the tools of a workspace's own MCP servers/,
      ],
      [await fetch(api(`/conversations/${id}/approvals/${callId}`)), 405, /not allowed/],
    ];
    for (const [response, status, message] of cases)
      expect(await expectApiError(response, status, /.+/)).toMatch(message);
    expect(fake.requests).toHaveLength(1);
    const { body } = await getJson<{ messages: ApiMessage[] }>(api(`/conversations/${id}`));
    expect(body.messages.at(-1)!.parts.find((p) => p.type === "tool-mcp__files__write_file")?.state).toBe(
      "approval-requested",
    );
    expect((await answer(id, callId, { approved: false })).status).toBe(200);
    await reader.rest();
  });
});
