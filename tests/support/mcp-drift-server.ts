// A real MCP server (the protocol's own SDK, Streamable HTTP, stateless) whose tool definitions the test changes
// between requests: it stands for a server that changes a tool under a running conversation. It counts the calls it
// runs, so a test can tell a blocked call (never sent) from a refused one. Its `wait` tool answers after `ms`, or
// notes that the client went away (a cancelled call) in `aborted`. `rawTools` answers tools/list with JSON text
// written by hand: a schema nested too deep for JSON.stringify (the SDK's) can only be sent that way.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";

export type DriftTool = {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
};

export type DriftServer = {
  url: string;
  /** The tools listed from now on (replace one to make it drift). */
  tools: DriftTool[];
  /** When set, the listing's `tools` array exactly as this JSON text (the SDK is bypassed for tools/list). */
  rawTools?: string;
  /** Calls run, by tool name. */
  calls: Array<{ name: string; arguments: unknown }>;
  /** Calls whose client went away before they answered. */
  aborted: string[];
  close: () => Promise<void>;
};

export const echoTool = (description = "Echoes the message back."): DriftTool => ({
  name: "echo",
  description,
  inputSchema: { type: "object", properties: { message: { type: "string" } }, required: ["message"] },
  annotations: { readOnlyHint: true },
});

export const waitTool = (): DriftTool => ({
  name: "wait",
  description: "Waits the given milliseconds, then answers.",
  inputSchema: { type: "object", properties: { ms: { type: "number" } }, required: ["ms"] },
  annotations: { readOnlyHint: true },
});

export async function startDriftServer(tools: DriftTool[] = [echoTool()]): Promise<DriftServer> {
  const state: DriftServer = { url: "", tools, calls: [], aborted: [], close: async () => {} };
  const mcpServer = (response: http.ServerResponse) => {
    const server = new Server({ name: "drift", version: "1.0.0" }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: state.tools }));
    server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
      state.calls.push({ name: request.params.name, arguments: request.params.arguments });
      if (request.params.name === "wait") {
        const ms = Number((request.params.arguments as { ms?: unknown } | undefined)?.ms) || 0;
        const done = await new Promise<boolean>((resolve) => {
          const timer = setTimeout(() => resolve(true), ms);
          const gone = () => {
            clearTimeout(timer);
            resolve(false);
          };
          extra.signal.addEventListener("abort", gone, { once: true });
          response.once("close", gone);
        });
        if (!done) state.aborted.push(request.params.name);
        return { content: [{ type: "text", text: `waited ${ms} ms` }] };
      }
      const message = (request.params.arguments as { message?: unknown } | undefined)?.message;
      return { content: [{ type: "text", text: `echo: ${String(message ?? "")}` }] };
    });
    return server;
  };
  const httpServer = http.createServer(async (request, response) => {
    if (request.method !== "POST") {
      response.writeHead(405).end();
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null") as unknown;
    const rpc = body as { id?: unknown; method?: unknown } | null;
    if (state.rawTools !== undefined && rpc?.method === "tools/list") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`{"jsonrpc":"2.0","id":${JSON.stringify(rpc.id)},"result":{"tools":${state.rawTools}}}`);
      return;
    }
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    const server = mcpServer(response);
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
