// A conversation's MCP tool list, fixed at its first model call (shape owned by lib/ai/mcp/mcp-tool-list.ts). It is
// stored as JSON text inside the Json column: PostgreSQL's jsonb would reorder the schemas' keys, and the list must
// come back byte for byte as the model first saw it (it sits in the provider's cached prefix).
import { getDb, sqliteDirect } from "./client.ts";
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
  const direct = sqliteDirect();
  if (direct) {
    if (direct.createConversationMcpTools(conversationId, JSON.stringify(data))) return data;
    return (await getConversationMcpTools({ conversationId })) ?? data;
  }
  try {
    await db.conversationMcpTools.create({ data: { conversationId, data: JSON.stringify(data) }, select: { conversationId: true } });
    return data;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return (await getConversationMcpTools({ conversationId })) ?? data;
}

export type ConversationMcpToolsRow = { data: unknown[]; revision: number; stale: boolean; toldChanges: string | null };

/** The list with its revision, whether a compression asked for it to be made again, and the changes last told. */
export async function getConversationMcpToolsRow({ conversationId }: { conversationId: string }): Promise<ConversationMcpToolsRow | null> {
  const db = await getDb();
  const direct = sqliteDirect();
  const row = direct ? direct.conversationMcpTools(conversationId) : await db.conversationMcpTools.findUnique({ where: { conversationId }, select: { data: true, revision: true, stale: true, toldChanges: true } });
  return row ? { ...row, data: listOf(row.data) } : null;
}

/** The list made again: its revision goes up (one cache break by choice) and nothing is pending or told any more. */
export async function replaceConversationMcpTools({ conversationId, data }: { conversationId: string; data: unknown[] }): Promise<number> {
  const db = await getDb();
  const text = JSON.stringify(data);
  const row = await db.conversationMcpTools.upsert({
    where: { conversationId },
    create: { conversationId, data: text, revision: 1 },
    update: { data: text, revision: { increment: 1 }, stale: false, toldChanges: null },
    select: { revision: true },
  });
  return row.revision;
}

/** After a compression: the next reply makes the list again (the prompt's cached prefix is rewritten anyway). */
export async function markConversationMcpToolsStale({ conversationId }: { conversationId: string }): Promise<void> {
  const db = await getDb();
  await db.conversationMcpTools.updateMany({ where: { conversationId }, data: { stale: true } });
}

export async function setConversationMcpToolsTold({ conversationId, toldChanges }: { conversationId: string; toldChanges: string }): Promise<void> {
  const db = await getDb();
  await db.conversationMcpTools.updateMany({ where: { conversationId }, data: { toldChanges } });
}
