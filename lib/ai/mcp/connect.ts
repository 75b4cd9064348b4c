// Connecting to an MCP server through the AI SDK's MCP client (@ai-sdk/mcp): Streamable HTTP with SSE as the
// fallback, or a program over stdio (stdio-transport.ts) that inherits none of this server's environment (no provider
// keys), and the server's tool definitions. Every transport carries tool calls' progress (progress.ts) and reads at
// most what limits.ts allows; an HTTP server is reached only at an address outbound-address.ts allows (a workspace's
// server: not loopback, private or link-local unless HINTLINE_MCP_ALLOW_PRIVATE=1; the operator's own: anywhere).
// Failures become one line a person can read.
import { measureJson } from "../../agent/mcp-tool-caps.ts";
import { createMCPClient, type MCPClient } from "@ai-sdk/mcp";
import { privateAddressesAllowed } from "../outbound-address.ts";
import { MCP_TOOL_LIST_MAX_BYTES, toolListTooLarge } from "./limits.ts";
import { mcpFetch } from "./mcp-fetch.ts";
import { progressTransport, withProgress } from "./progress.ts";
import type { McpServerConfig } from "./server-config.ts";
import { BoundedStdioTransport } from "./stdio-transport.ts";
import { logFailure } from "../../log/logger.ts";
import { cutOutsideNotes } from "../../operator-words.ts";

/** How long connecting (and listing tools) may take before the server counts as unreachable. */
export const MCP_CONNECT_TIMEOUT_MS = 10_000;
const CLIENT_NAME = "hintline";

export type McpToolDefinition = {
  name: string;
  title?: string;
  description?: string;
  inputSchema: unknown;
  annotations?: unknown;
};

/** A failure as one line: the client's message and, where there is one, the network reason under it. */
export function describeMcpError(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const e = current as { message?: unknown; code?: unknown; cause?: unknown };
    const message = typeof e.message === "string" ? e.message.replace(/\s+/g, " ").trim() : String(current);
    const code = typeof e.code === "string" ? e.code : undefined;
    const line = code && !message.includes(code) ? `${message} (${code})` : message;
    if (line && !parts.some((p) => p.includes(line))) parts.push(line);
    current = e.cause;
  }
  // A transport's error ends with the server's body, which mcp-fetch.ts leaves empty or replaces.
  const text = parts.join(": ").replace(/[:\s]+$/, "") || "unknown error";
  return text.length > 500 ? `${cutOutsideNotes(text, 500)}…` : text;
}

async function open(server: McpServerConfig, kind: "http" | "sse" | "stdio", timeoutMs: number): Promise<MCPClient> {
  const { transport } = server;
  const initializationOptions = { timeout: timeoutMs };
  if (transport.type === "stdio") {
    const stdio = new BoundedStdioTransport({
      command: transport.command,
      args: transport.args,
      env: transport.env,
      cwd: transport.cwd,
      stderr: "ignore",
    });
    return withProgress(
      await createMCPClient({ transport: progressTransport(stdio), clientName: CLIENT_NAME, initializationOptions }),
    );
  }
  const client = await createMCPClient({
    transport: {
      type: kind === "sse" ? "sse" : "http",
      url: transport.url,
      headers: transport.headers,
      redirect: "error",
      fetch: mcpFetch({ allowPrivate: server.source === "operator" || privateAddressesAllowed() }),
    },
    clientName: CLIENT_NAME,
    initializationOptions,
  });
  return withProgress(client);
}

/** A connected client; an HTTP server that does not speak Streamable HTTP is tried again over SSE. */
export async function connectMcp(server: McpServerConfig, timeoutMs = MCP_CONNECT_TIMEOUT_MS): Promise<MCPClient> {
  if (server.transport.type === "stdio") return open(server, "stdio", timeoutMs);
  try {
    return await open(server, "http", timeoutMs);
  } catch (first) {
    try {
      return await open(server, "sse", timeoutMs);
    } catch {
      throw first;
    }
  }
}

/** Every tool the server lists (all pages), as it defines them; a listing over MCP_TOOL_LIST_MAX_BYTES throws McpLimitError. */
export async function listMcpTools(
  client: MCPClient,
  timeoutMs = MCP_CONNECT_TIMEOUT_MS,
  maxBytes = MCP_TOOL_LIST_MAX_BYTES,
): Promise<McpToolDefinition[]> {
  const tools: McpToolDefinition[] = [];
  let cursor: string | undefined;
  let bytes = 0;
  for (let page = 0; page < 50; page++) {
    const result = await client.listTools({
      ...(cursor ? { params: { cursor } } : {}),
      options: { timeout: timeoutMs },
    });
    // Measured without JSON.stringify, which recurses: a server may list a schema nested 20,000 deep.
    bytes += measureJson(result.tools, { maxDepth: Number.POSITIVE_INFINITY, maxChars: maxBytes - bytes }).chars;
    if (bytes > maxBytes) throw toolListTooLarge(maxBytes);
    tools.push(...(result.tools as McpToolDefinition[]));
    cursor = result.nextCursor ?? undefined;
    if (!cursor) break;
  }
  return tools;
}

/** Connects, lists the tools and closes again: what GET …/mcp-servers/:name shows. */
export async function probeMcpServer(
  server: McpServerConfig,
): Promise<{ ok: true; tools: McpToolDefinition[] } | { ok: false; error: string }> {
  let client: MCPClient | undefined;
  try {
    client = await connectMcp(server);
    return { ok: true, tools: await listMcpTools(client) };
  } catch (error) {
    return { ok: false, error: describeMcpError(error) };
  } finally {
    await client?.close().catch(logFailure("closing an MCP connection failed", { server: server.name }));
  }
}
