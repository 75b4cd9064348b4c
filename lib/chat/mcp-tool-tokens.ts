// What a conversation's MCP tools add to every model call: their definitions' tokens, per server, as fixed at its
// first call. The meter, GET /context and the compression trigger count them beside Hintline's own tools.
import type { McpToolTokens } from "../chat-message.ts";
import { type FixedMcpTool, fixedToolTokens } from "../ai/mcp/mcp-tool-list.ts";
import { getConversationMcpTools } from "../db/conversation-mcp-tools.ts";
import { isFixedTool } from "./mcp-reply.ts";

export function mcpToolTokensOf(list: readonly FixedMcpTool[]): McpToolTokens {
  const byServer: Record<string, number> = {};
  for (const tool of list) byServer[tool.server] = (byServer[tool.server] ?? 0) + fixedToolTokens(tool);
  return { byServer };
}

/** The conversation's stored list (none yet: nothing, as before its first call). */
export async function conversationMcpToolTokens(conversationId: string): Promise<McpToolTokens> {
  const stored = await getConversationMcpTools({ conversationId });
  return mcpToolTokensOf((stored ?? []).filter(isFixedTool));
}
