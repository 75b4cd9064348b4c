// Queries for MCP tool fingerprints: per workspace, server and tool, the definition the person approved (first seen,
// or a change they accepted) and a changed one waiting for review.
import { getDb } from "./client.ts";
import { isUniqueViolation } from "./workspaces.ts";

export type McpFingerprintRow = {
  server: string;
  tool: string;
  hash: string;
  definition: string;
  pendingHash: string | null;
  pendingDefinition: string | null;
};

const SELECT = { server: true, tool: true, hash: true, definition: true, pendingHash: true, pendingDefinition: true } as const;

export async function listMcpFingerprints({ workspaceId, server }: { workspaceId: string; server: string }): Promise<McpFingerprintRow[]> {
  const db = await getDb();
  return db.mcpToolFingerprint.findMany({ where: { workspaceId, server }, select: SELECT });
}

/** Records a tool seen for the first time; a row another request wrote meanwhile is kept as it is. */
export async function recordFirstSeen({ workspaceId, server, tool, hash, definition }: { workspaceId: string; server: string; tool: string; hash: string; definition: string }): Promise<void> {
  const db = await getDb();
  try {
    await db.mcpToolFingerprint.upsert({ where: { workspaceId_server_tool: { workspaceId, server, tool } }, create: { workspaceId, server, tool, hash, definition }, update: {} });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

/** The definition seen now differs from the approved one: it waits for review (null, null: the server went back to it). */
export async function setPendingDefinition({
  workspaceId,
  server,
  tool,
  hash,
  definition,
}: {
  workspaceId: string;
  server: string;
  tool: string;
  hash: string | null;
  definition: string | null;
}): Promise<void> {
  const db = await getDb();
  await db.mcpToolFingerprint.updateMany({ where: { workspaceId, server, tool }, data: { pendingHash: hash, pendingDefinition: definition } });
}

/** The person accepted the waiting change: it becomes the approved definition. Null when no change waits. */
export async function acceptPendingDefinition({ workspaceId, server, tool }: { workspaceId: string; server: string; tool: string }): Promise<McpFingerprintRow | null> {
  const db = await getDb();
  const row = await db.mcpToolFingerprint.findUnique({ where: { workspaceId_server_tool: { workspaceId, server, tool } }, select: SELECT });
  if (!row?.pendingHash || row.pendingDefinition === null) return null;
  const updated = await db.mcpToolFingerprint.updateManyAndReturn({
    where: { workspaceId, server, tool, pendingHash: row.pendingHash },
    data: { hash: row.pendingHash, definition: row.pendingDefinition, pendingHash: null, pendingDefinition: null },
    select: SELECT,
  });
  return updated[0] ?? null;
}

/** A server removed: its tools' approvals go with it (a new server of the same name starts afresh). */
export async function deleteMcpFingerprints({ workspaceId, server }: { workspaceId: string; server: string }): Promise<void> {
  const db = await getDb();
  await db.mcpToolFingerprint.deleteMany({ where: { workspaceId, server } });
}

/**
 * A server's full listing: the tools it has now are `listed`, the others not. Returns whether anything flipped (a
 * tool came back or went away).
 */
export async function setListedTools({ workspaceId, server, tools }: { workspaceId: string; server: string; tools: string[] }): Promise<boolean> {
  const db = await getDb();
  const [gone, back] = await Promise.all([
    db.mcpToolFingerprint.updateMany({ where: { workspaceId, server, listed: true, tool: { notIn: tools } }, data: { listed: false } }),
    db.mcpToolFingerprint.updateMany({ where: { workspaceId, server, listed: false, tool: { in: tools } }, data: { listed: true } }),
  ]);
  return gone.count + back.count > 0;
}

export type McpCatalogRow = { server: string; tool: string; definition: string; listed: boolean };

/** Every tool the workspace's servers ever listed, with its approved definition and whether the last listing had it. */
export async function listMcpCatalog({ workspaceId }: { workspaceId: string }): Promise<McpCatalogRow[]> {
  const db = await getDb();
  return db.mcpToolFingerprint.findMany({ where: { workspaceId }, select: { server: true, tool: true, definition: true, listed: true } });
}
