// Progress notifications reset an MCP call's timeout (issue #27 §5), on SQLite, through the OpenAI fake, against the
// reference server-everything over stdio (the operator's), Streamable HTTP and the older SSE transport (the
// workspace's), each with a 2 s timeout. Its trigger-long-running-operation reports progress after each step when the
// call carries a progress token: a 5 s call in 5 steps completes, while one that reports nothing for 4 s (one step)
// still times out as a tool error to the model, and the reply goes on. The progress reaches the stream (for the call's
// row) as transient chunks and is not stored.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { getJson, readChunks } from "../support/chat-client.ts";
import { EVERYTHING_BIN, type McpHttpServer, operatorConfig, startEverythingHttp } from "../support/mcp-reference.ts";
import { type FakeToolCall, type OpenAIFake, startOpenAIFake, toolResultText } from "../support/openai-fake.ts";
import { jsonRequest, userMessage } from "./helpers.ts";

const LONG = "trigger-long-running-operation";

describe("SQLite: MCP progress resets a call's timeout", () => {
  let fake: OpenAIFake;
  let server: AppServer;
  let http: McpHttpServer;
  let sse: McpHttpServer;
  let workspaceId = "";
  let seq = 0;
  const api = (p: string) => `${server.url}/api${p}`;

  beforeAll(async () => {
    [http, sse] = await Promise.all([startEverythingHttp(), startEverythingHttp("sse")]);
    const { file } = operatorConfig({
      viastdio: { command: process.execPath, args: [EVERYTHING_BIN, "stdio"], timeoutSeconds: 2 },
    });
    fake = await startOpenAIFake();
    // Three servers of ~13 tools each: a window wide enough that none is left out (25 % of it for MCP tools).
    server = await startAppServer({
      env: { ...providerEnv(fake.url), HINTLINE_MCP_CONFIG: file, HINTLINE_CONTEXT_WINDOW: "32000" },
    });
    workspaceId = (await getJson<{ id: string }>(api("/workspaces"), jsonRequest("POST", { name: "MCP progress" })))
      .body.id;
    const add = (body: object) => fetch(api(`/workspaces/${workspaceId}/mcp-servers`), jsonRequest("POST", body));
    expect((await add({ name: "viahttp", url: http.url, timeoutSeconds: 2 })).status).toBe(201);
    expect((await add({ name: "viasse", url: sse.url, timeoutSeconds: 2 })).status).toBe(201);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
    await http?.stop();
    await sse?.stop();
  });

  /** One reply in a new conversation that makes `calls` at once, then says "Went on."; the tool results and the text. */
  async function reply(calls: FakeToolCall[]) {
    fake.reset();
    fake.enqueue({ kind: "tools", calls }, { text: "Went on." });
    const id = `progress-${Date.now().toString(36)}-${seq++}`;
    const response = await fetch(
      api("/chat"),
      jsonRequest("POST", { id, message: userMessage(`m-${id}`, "go"), workspaceId }),
    );
    expect(response.status).toBe(200);
    const chunks = await readChunks(response);
    const text = chunks
      .filter((c) => c.type === "text-delta")
      .map((c) => String(c.delta))
      .join("");
    const stored = (await getJson<{ messages: { parts: { type: string }[] }[] }>(api(`/conversations/${id}`))).body
      .messages;
    return { result: (callId: string) => toolResultText(fake.requests[1], callId), text, chunks, stored };
  }

  for (const via of ["stdio", "http", "sse"]) {
    it(`over ${via}: a 5 s call that reports progress every second outlives the 2 s timeout and completes`, async () => {
      const started = Date.now();
      const { result, text, chunks, stored } = await reply([
        { id: "p1", name: `mcp__via${via}__${LONG}`, arguments: { duration: 5, steps: 5 } },
      ]);
      expect(result("p1")).toMatch(/^Long running operation completed\. Duration: 5 seconds, Steps: 5\./);
      expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
      expect(text).toBe("Went on.");
      // The call's row hears its progress live (transient chunks with the call's id); none of it is stored.
      const progress = chunks.filter((c) => c.type === "data-tool-progress");
      expect(progress.length).toBeGreaterThanOrEqual(3);
      expect(progress.every((c) => c.id === "p1" && c.transient === true)).toBe(true);
      expect(progress.at(-1)?.data).toMatchObject({ toolCallId: "p1", total: 5 });
      expect(stored.flatMap((m) => m.parts).some((p) => p.type === "data-tool-progress")).toBe(false);
    }, 60_000);
  }

  it("a call that reports nothing for longer than the timeout still times out, on each transport, and the reply goes on", async () => {
    const silent = (via: string): FakeToolCall => ({
      id: `s-${via}`,
      name: `mcp__via${via}__${LONG}`,
      arguments: { duration: 4, steps: 1 },
    });
    const { result, text } = await reply([silent("stdio"), silent("http"), silent("sse")]);
    for (const via of ["stdio", "http", "sse"]) {
      expect(result(`s-${via}`)).toMatch(
        new RegExp(
          `^McpTimeoutError: MCP server via${via} did not answer ${LONG} or report progress within 2 s; the call was cancelled\\.`,
        ),
      );
    }
    expect(text).toBe("Went on.");
  }, 60_000);
});
