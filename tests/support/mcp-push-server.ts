// A small MCP server made by the test (issue 48's subscribed state sources): Streamable HTTP on loopback, one
// resource `push://status` whose text the test sets, at two paths — /push advertises resources.subscribe and takes
// resources/subscribe and /unsubscribe, /plain does not. It counts per path what a test needs to see: reads,
// subscribes, unsubscribes, open GET streams (a subscription's connection) and sessions ended by the client; `notify`
// sends notifications/resources/updated to every session subscribed, and `drop` ends every session on the server's
// side (as a restarted server would). Built on the protocol's own SDK (@modelcontextprotocol/sdk).
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  isInitializeRequest,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

export const PUSH_URI = "push://status";
type Path = "push" | "plain";
type Counts = { reads: number; subscribes: number; unsubscribes: number; streams: number; ended: number };
type Session = { path: Path; server: McpServer; transport: StreamableHTTPServerTransport; subscribed: boolean };

function sessionServer(path: Path, counts: Counts, state: { fields: Record<string, string> }, session: () => Session) {
  const server = new McpServer(
    { name: `push-${path}`, version: "1.0.0" },
    path === "push" ? { capabilities: { resources: { subscribe: true } } } : {},
  );
  server.registerResource("status", PUSH_URI, { mimeType: "application/json" }, async (uri) => {
    counts.reads++;
    return { contents: [{ uri: uri.href, mimeType: "application/json", text: JSON.stringify(state.fields) }] };
  });
  if (path === "push") {
    server.server.setRequestHandler(SubscribeRequestSchema, async (request) => {
      counts.subscribes++;
      if (request.params.uri === PUSH_URI) session().subscribed = true;
      return {};
    });
    server.server.setRequestHandler(UnsubscribeRequestSchema, async () => {
      counts.unsubscribes++;
      session().subscribed = false;
      return {};
    });
  }
  return server;
}

async function bodyOf(request: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  return text ? JSON.parse(text) : undefined;
}

export async function startPushServer() {
  const state = { fields: { status: "green" } as Record<string, string> };
  const zero = (): Counts => ({ reads: 0, subscribes: 0, unsubscribes: 0, streams: 0, ended: 0 });
  const counts: Record<Path, Counts> = { push: zero(), plain: zero() };
  const sessions = new Map<string, Session>();

  const handle = async (request: http.IncomingMessage, response: http.ServerResponse) => {
    const path = request.url === "/push" ? "push" : request.url === "/plain" ? "plain" : undefined;
    if (!path) return void response.writeHead(404).end();
    const body = request.method === "POST" ? await bodyOf(request) : undefined;
    const id = request.headers["mcp-session-id"];
    const existing = typeof id === "string" ? sessions.get(id) : undefined;
    if (existing) {
      if (request.method === "GET") {
        counts[path].streams++;
        response.once("close", () => counts[path].streams--);
      }
      if (request.method === "DELETE") counts[path].ended++;
      return existing.transport.handleRequest(request, response, body);
    }
    if (request.method !== "POST" || !isInitializeRequest(body))
      return void response
        .writeHead(id ? 404 : 400, { "content-type": "application/json" })
        .end(JSON.stringify({ jsonrpc: "2.0", error: { code: -32_000, message: "no such session" }, id: null }));
    let session: Session | undefined;
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: randomUUID,
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, session!),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    const server = sessionServer(path, counts[path], state, () => session!);
    session = { path, server, transport, subscribed: false };
    await server.connect(transport);
    return transport.handleRequest(request, response, body);
  };

  const server = http.createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    state,
    counts: (path: Path) => ({ ...counts[path] }),
    /** Sends `times` updates of PUSH_URI to every subscribed session. */
    async notify(times = 1) {
      for (const session of sessions.values())
        if (session.subscribed)
          for (let i = 0; i < times; i++) await session.server.server.sendResourceUpdated({ uri: PUSH_URI });
    },
    /** Ends every session on the server's side. */
    async drop() {
      await Promise.all([...sessions.values()].map((session) => session.server.close()));
      sessions.clear();
    },
    close: async () => {
      await Promise.all([...sessions.values()].map((session) => session.server.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export type PushServer = Awaited<ReturnType<typeof startPushServer>>;
