// A real MCP server (the protocol's own SDK, Streamable HTTP, stateless) that turns hostile on request: its tools'
// calls answer with one SSE event that never ends (`flood`), a JSON body far past any sane size (`huge-json`) or an
// HTTP error whose body holds a secret (`leak`); its listing can be made huge (`hugeListing`), and every request can
// be answered with that error (`failEverything`). It counts what it managed to send, so a test can tell that the
// client stopped reading.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export const HOSTILE_SECRET = "root:x:0:0:SECRET-INTERNAL-BODY";
const MiB = 1024 * 1024;

export type HostileServer = {
  url: string;
  /** Bytes written by the answers of flood and huge-json calls (the client reads no further than its limits). */
  written: { flood: number; json: number };
  /** Lists 3 pages of about 2 MiB each (each page under the 4 MiB message limit, the listing over its 4 MiB). */
  hugeListing: boolean;
  /** Every request is answered with HTTP 500 and a body holding HOSTILE_SECRET. */
  failEverything: boolean;
  close: () => Promise<void>;
};

const tool = (name: string, description = `Hostile: ${name}.`) => ({
  name,
  description,
  inputSchema: { type: "object", properties: {} },
  annotations: { readOnlyHint: true },
});
const HOSTILE_TOOLS = ["flood", "huge-json", "leak"].map((name) => tool(name));
const FLOOD_BYTES = 128 * MiB;
const JSON_BYTES = 64 * MiB;

/** Writes `total` bytes of `x` in 64 KiB chunks as fast as the client reads them, then leaves the response open (or ends it). */
function pump(response: http.ServerResponse, total: number, count: (bytes: number) => void, end?: string): void {
  const chunk = Buffer.alloc(64 * 1024, "x");
  let sent = 0;
  const more = () => {
    while (!response.destroyed && sent < total) {
      sent += chunk.length;
      count(chunk.length);
      if (!response.write(chunk)) return void response.once("drain", more);
    }
    if (!response.destroyed && end !== undefined) response.end(end);
  };
  more();
}

export async function startHostileServer(): Promise<HostileServer> {
  const state: HostileServer = {
    url: "",
    written: { flood: 0, json: 0 },
    hugeListing: false,
    failEverything: false,
    close: async () => {},
  };
  const mcpServer = () => {
    const server = new Server({ name: "hostile", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async (request) => {
      if (!state.hugeListing) return { tools: HOSTILE_TOOLS };
      const page = Number(request.params?.cursor ?? 0);
      return {
        tools: [tool(`bulk-${page}`, "b".repeat(2 * MiB))],
        ...(page < 2 ? { nextCursor: String(page + 1) } : {}),
      };
    });
    server.setRequestHandler(CallToolRequestSchema, async () => ({
      content: [{ type: "text", text: "not hostile after all" }],
    }));
    return server;
  };
  const httpServer = http.createServer(async (request, response) => {
    if (state.failEverything) {
      response
        .writeHead(500, "Internal Server Error at 10.0.0.7", { "content-type": "text/html" })
        .end(`<html>${HOSTILE_SECRET}</html>`);
      return;
    }
    if (request.method !== "POST") return void response.writeHead(405).end();
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") as {
      id?: number;
      method?: string;
      params?: { name?: string };
    } | null;
    const hostile = body?.method === "tools/call" ? body.params?.name : undefined;
    if (hostile === "flood") {
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write(
        `event: message\ndata: {"jsonrpc":"2.0","id":${body!.id},"result":{"content":[{"type":"text","text":"`,
      );
      return pump(response, FLOOD_BYTES, (n) => (state.written.flood += n));
    }
    if (hostile === "huge-json") {
      response.writeHead(200, { "content-type": "application/json" });
      response.write(`{"jsonrpc":"2.0","id":${body!.id},"result":{"content":[{"type":"text","text":"`);
      return pump(response, JSON_BYTES, (n) => (state.written.json += n), '"}]}}');
    }
    if (hostile === "leak") {
      response.writeHead(500, { "content-type": "text/html" }).end(`<html>${HOSTILE_SECRET}</html>`);
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = mcpServer();
    response.on("close", () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  });
  await new Promise<void>((resolve) => httpServer.listen(0, "127.0.0.1", resolve));
  state.url = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}/mcp`;
  state.close = () =>
    new Promise((resolve) => {
      httpServer.closeAllConnections();
      httpServer.close(() => resolve());
    });
  return state;
}
