// Cancel on one MCP call (issue #27 §5), through the OpenAI fake, on SQLite and PostgreSQL, against a real MCP server
// (the protocol's SDK) whose `wait` tool takes as long as asked: POST …/tool-calls/:toolCallId/cancel stops that call
// (the server sees its client go), the model gets McpCallCancelledError with the call counter, and the reply goes on to
// complete. On PostgreSQL the cancel is sent to the other instance, which forwards it. Bad ids are 4xx; a call that is
// not running is a 409; nothing changes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chunkReader, getJson } from "../support/chat-client.ts";
import { type DriftServer, startDriftServer, waitTool } from "../support/mcp-drift-server.ts";
import { type OpenAIFake, startOpenAIFake, toolResultText } from "../support/openai-fake.ts";
import { type ApiMessage, databaseKinds, expectApiError, jsonRequest, pollUntil, userMessage } from "./helpers.ts";

const kinds = databaseKinds("mcpcancel");

describe.each(kinds)("$name: cancelling one MCP call", ({ name: kind, databaseUrl }) => {
  let fake: OpenAIFake;
  let server: AppServer;
  let other: AppServer | undefined;
  let mcp: DriftServer;
  let workspaceId = "";
  const api = (p: string, base = server.url) => `${base}/api${p}`;

  beforeAll(async () => {
    mcp = await startDriftServer([waitTool()]);
    fake = await startOpenAIFake();
    server = await startAppServer({ databaseUrl: await databaseUrl(), env: providerEnv(fake.url) });
    if (kind === "PostgreSQL")
      other = await startAppServer({ databaseUrl: server.databaseUrl, env: providerEnv(fake.url) });
    workspaceId = (await getJson<{ id: string }>(api("/workspaces"), jsonRequest("POST", { name: "Cancel" }))).body.id;
    expect(
      (await fetch(api(`/workspaces/${workspaceId}/mcp-servers`), jsonRequest("POST", { name: "slow", url: mcp.url })))
        .status,
    ).toBe(201);
  });
  afterAll(async () => {
    await other?.stop();
    await server?.stop();
    await fake?.close();
    await mcp?.close();
  });

  it("stops the one call, tells the model, and the reply completes; from the other instance on PostgreSQL", async () => {
    fake.reset();
    fake.enqueue(
      { kind: "tools", calls: [{ id: "slow1", name: "mcp__slow__wait", arguments: { ms: 60_000 } }] },
      { text: "Went on without it." },
    );
    const id = `cancel-${Date.now().toString(36)}`;
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", { id, message: userMessage(`m-${id}`, "go"), workspaceId }),
    );
    expect(response.status).toBe(200);
    const reader = chunkReader(response);
    await pollUntil(
      async () => mcp.calls.length,
      (n) => n === 1,
      30_000,
      "the wait call to reach the MCP server",
    );

    const base = other?.url ?? server.url;
    // The instance running the reply knows its calls: an id that is not running is a 409 (another instance forwards it).
    await expectApiError(
      await fetch(api(`/conversations/${id}/tool-calls/not-running/cancel`), { method: "POST" }),
      409,
      "conflict",
    );
    await expectApiError(
      await fetch(api(`/conversations/no-such-conversation/tool-calls/slow1/cancel`, base), { method: "POST" }),
      404,
      "not_found",
    );
    await expectApiError(
      await fetch(api(`/conversations/${id}/tool-calls/${"x".repeat(300)}/cancel`, base), { method: "POST" }),
      400,
      "bad_request",
    );
    const cancelled = await fetch(api(`/conversations/${id}/tool-calls/slow1/cancel`, base), { method: "POST" });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toEqual(other ? { requested: true } : { cancelled: true });

    await reader.until((c) => c.type === "finish");
    const result = toolResultText(fake.requests[1], "slow1");
    expect(result).toMatch(
      /^McpCallCancelledError: The person cancelled wait on MCP server slow after \d+ s; it was stopped and gave no result\./,
    );
    expect(result).toMatch(/\(Tool call #1 for 'mcp__slow__wait' in this conversation\.\)$/);
    await pollUntil(
      async () => mcp.aborted.length,
      (n) => n === 1,
      10_000,
      "the MCP server to see the cancelled call's client go",
    );
    const stored = (await getJson<{ messages: ApiMessage[] }>(api(`/conversations/${id}`))).body;
    const reply = stored.messages.at(-1)!;
    expect(reply.role).toBe("assistant");
    expect(reply.parts.some((p) => p.type === "text" && p.text === "Went on without it.")).toBe(true);

    // Once the reply ended, the call is not running any more.
    await expectApiError(
      await fetch(api(`/conversations/${id}/tool-calls/slow1/cancel`), { method: "POST" }),
      409,
      "conflict",
    );
  });
});
