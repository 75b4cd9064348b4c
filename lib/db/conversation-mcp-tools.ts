// A conversation's MCP tool list, fixed at its first model call (shape owned by lib/ai/mcp/mcp-tool-list.ts). It is
// stored as JSON text inside the Json column: PostgreSQL's jsonb would reorder the schemas' keys, and the list must
// come back byte for byte as the model first saw it (it sits in the provider's cached prefix).
import { getDb } from "./client.ts";
import { isUniqueViolation } from "./workspaces.ts";

function listOf(data: unknown): unknown[] {
  if (typeof data !== "string") return Array.isArray(data) ? data : [];
  try {
    const parsed: unknown = JSON.parse(data);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

export async function getConversationMcpTools({ conversationId }: { conversationId: string }): Promise<unknown[] | null> {
  const db = await getDb();
  const row = await db.conversationMcpTools.findUnique({ where: { conversationId }, select: { data: true } });
  return row ? listOf(row.data) : null;
}

/** Stores the list unless the conversation has one already (another reply or instance was first); returns the stored one. */
export async function fixConversationMcpTools({ conversationId, data }: { conversationId: string; data: unknown[] }): Promise<unknown[]> {
  const db = await getDb();
  try {
    await db.conversationMcpTools.create({ data: { conversationId, data: JSON.stringify(data) } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return (await getConversationMcpTools({ conversationId })) ?? data;
}
