// A conversation's MCP tool list, fixed at its first model call (JSON, shape owned by lib/ai/mcp/mcp-tool-list.ts).
import { getDb } from "./client.ts";
import { isUniqueViolation } from "./workspaces.ts";

export async function getConversationMcpTools({ conversationId }: { conversationId: string }): Promise<unknown[] | null> {
  const db = await getDb();
  const row = await db.conversationMcpTools.findUnique({ where: { conversationId }, select: { data: true } });
  return row ? (Array.isArray(row.data) ? row.data : []) : null;
}

/** Stores the list unless the conversation has one already (another reply or instance was first); returns the stored one. */
export async function fixConversationMcpTools({ conversationId, data }: { conversationId: string; data: unknown[] }): Promise<unknown[]> {
  const db = await getDb();
  try {
    await db.conversationMcpTools.create({ data: { conversationId, data: data as object[] } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return (await getConversationMcpTools({ conversationId })) ?? data;
}
