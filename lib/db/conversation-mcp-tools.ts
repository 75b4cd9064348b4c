// A conversation's MCP tool list, fixed at its first model call (shape owned by lib/ai/mcp/mcp-tool-list.ts). It is
// stored as JSON text inside the Json column: PostgreSQL's jsonb would reorder the schemas' keys, and the list must
// come back byte for byte as the model first saw it (it sits in the provider's cached prefix). Beside it, the tools
// left out of the list (shape owned by lib/agent/mcp-tool-caps.ts) and whether the agent was told of them.
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

export async function getConversationMcpTools({
  conversationId,
}: {
  conversationId: string;
}): Promise<unknown[] | null> {
  const db = await getDb();
  const row = await db.conversationMcpTools.findUnique({ where: { conversationId }, select: { data: true } });
  return row ? listOf(row.data) : null;
}

/** The tools left out of a list, as stored (null: none). */
const leftOutText = (leftOut: readonly unknown[] | undefined) => (leftOut?.length ? JSON.stringify(leftOut) : null);

export type McpToolsLeftOut = {
  /** The tools left out of the list, with their reasons. */
  leftOut?: readonly unknown[];
  /** Whether the agent has been told of them (the reply that makes the list tells it at its first step). */
  leftOutTold?: boolean;
};

/** Stores the list unless the conversation has one already (another reply or instance was first); returns the stored one. */
export async function fixConversationMcpTools({
  conversationId,
  data,
  leftOut,
  leftOutTold = false,
}: { conversationId: string; data: unknown[] } & McpToolsLeftOut): Promise<unknown[]> {
  const db = await getDb();
  const direct = sqliteDirect();
  if (direct) {
    if (direct.createConversationMcpTools(conversationId, JSON.stringify(data), leftOutText(leftOut), leftOutTold))
      return data;
    return (await getConversationMcpTools({ conversationId })) ?? data;
  }
  try {
    await db.conversationMcpTools.create({
      data: { conversationId, data: JSON.stringify(data), leftOut: leftOutText(leftOut), leftOutTold },
      select: { conversationId: true },
    });
    return data;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
  return (await getConversationMcpTools({ conversationId })) ?? data;
}

export type ConversationMcpToolsRow = {
  data: unknown[];
  revision: number;
  stale: boolean;
  toldChanges: string | null;
  leftOut: unknown[];
  leftOutTold: boolean;
};

const ROW = { data: true, revision: true, stale: true, toldChanges: true, leftOut: true, leftOutTold: true } as const;

/** The list with its revision, whether a compression asked for it to be made again, the changes last told and what it left out. */
export async function getConversationMcpToolsRow({
  conversationId,
}: {
  conversationId: string;
}): Promise<ConversationMcpToolsRow | null> {
  const db = await getDb();
  const direct = sqliteDirect();
  const row = direct
    ? direct.conversationMcpTools(conversationId)
    : await db.conversationMcpTools.findUnique({ where: { conversationId }, select: ROW });
  return row ? { ...row, data: listOf(row.data), leftOut: listOf(row.leftOut ?? "[]") } : null;
}

/** The list made again: its revision goes up (one cache break by choice) and nothing is pending or told any more. */
export async function replaceConversationMcpTools({
  conversationId,
  data,
  leftOut,
  leftOutTold = false,
}: { conversationId: string; data: unknown[] } & McpToolsLeftOut): Promise<number> {
  const db = await getDb();
  const text = JSON.stringify(data);
  const left = { leftOut: leftOutText(leftOut), leftOutTold };
  const row = await db.conversationMcpTools.upsert({
    where: { conversationId },
    create: { conversationId, data: text, revision: 1, ...left },
    update: { data: text, revision: { increment: 1 }, stale: false, toldChanges: null, ...left },
    select: { revision: true },
  });
  return row.revision;
}

/** After a compression: the next reply makes the list again (the prompt's cached prefix is rewritten anyway). */
export async function markConversationMcpToolsStale({ conversationId }: { conversationId: string }): Promise<void> {
  const db = await getDb();
  await db.conversationMcpTools.updateMany({ where: { conversationId }, data: { stale: true } });
}

/** The agent was told which tools its list left out. */
export async function setConversationMcpToolsLeftOutTold({
  conversationId,
}: {
  conversationId: string;
}): Promise<void> {
  const db = await getDb();
  await db.conversationMcpTools.updateMany({ where: { conversationId }, data: { leftOutTold: true } });
}

export async function setConversationMcpToolsTold({
  conversationId,
  toldChanges,
}: {
  conversationId: string;
  toldChanges: string;
}): Promise<void> {
  const db = await getDb();
  await db.conversationMcpTools.updateMany({ where: { conversationId }, data: { toldChanges } });
}
