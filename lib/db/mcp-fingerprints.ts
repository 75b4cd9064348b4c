// Queries for MCP tool fingerprints: per workspace, server and tool, the definition the person approved (first seen,
// or a change they accepted) and a changed one waiting for review. A server may list a thousand tools: writes go in
// batches, each well under the bound parameters a statement may carry (SQLite's driver refuses a list of 1,000 names).
import { getDb, lockedTransaction } from "./client.ts";

/** Rows (or names) one statement writes or names at most. */
export const FINGERPRINT_BATCH = 100;

function batches<T>(items: readonly T[], size = FINGERPRINT_BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

export type McpFingerprintRow = {
  server: string;
  tool: string;
  hash: string;
  definition: string;
  pendingHash: string | null;
  pendingDefinition: string | null;
};

const SELECT = {
  server: true,
  tool: true,
  hash: true,
  definition: true,
  pendingHash: true,
  pendingDefinition: true,
} as const;

export async function listMcpFingerprints({
  workspaceId,
  server,
}: {
  workspaceId: string;
  server: string;
}): Promise<McpFingerprintRow[]> {
  const db = await getDb();
  return db.mcpToolFingerprint.findMany({ where: { workspaceId, server }, select: SELECT });
}

export type FirstSeenTool = { tool: string; hash: string; definition: string };

/**
 * Records tools seen for the first time; a row another request wrote meanwhile is kept as it is. Each batch checks
 * which of its tools exist and writes the others under the server's lock (two listings at once are common: a server
 * just added is listed in the background while its page asks for it).
 */
export async function recordFirstSeen({
  workspaceId,
  server,
  tools,
}: {
  workspaceId: string;
  server: string;
  tools: readonly FirstSeenTool[];
}): Promise<void> {
  for (const batch of batches(tools)) {
    await lockedTransaction(`mcp-fingerprints:${workspaceId}:${server}`, async (tx) => {
      const names = batch.map((t) => t.tool);
      const known = new Set(
        (
          await tx.mcpToolFingerprint.findMany({
            where: { workspaceId, server, tool: { in: names } },
            select: { tool: true },
          })
        ).map((r) => r.tool),
      );
      const data = batch.filter((t) => !known.has(t.tool)).map((t) => ({ workspaceId, server, ...t }));
      if (data.length) await tx.mcpToolFingerprint.createMany({ data });
    });
  }
}

export type PendingDefinition = { tool: string; hash: string | null; definition: string | null };

/**
 * Definitions seen now that differ from the approved ones: each waits for review (hash and definition null: the server
 * went back to the approved one). Those going back are cleared in batches; each waiting one is its own update.
 */
export async function setPendingDefinitions({
  workspaceId,
  server,
  changes,
}: {
  workspaceId: string;
  server: string;
  changes: readonly PendingDefinition[];
}): Promise<void> {
  const db = await getDb();
  const cleared = changes.filter((c) => c.hash === null).map((c) => c.tool);
  for (const tools of batches(cleared)) {
    await db.mcpToolFingerprint.updateMany({
      where: { workspaceId, server, tool: { in: tools } },
      data: { pendingHash: null, pendingDefinition: null },
    });
  }
  for (const batch of batches(changes.filter((c) => c.hash !== null))) {
    await db.$transaction(
      batch.map((c) =>
        db.mcpToolFingerprint.updateMany({
          where: { workspaceId, server, tool: c.tool },
          data: { pendingHash: c.hash, pendingDefinition: c.definition },
        }),
      ),
    );
  }
}

/** The person accepted the waiting change: it becomes the approved definition. Null when no change waits. */
export async function acceptPendingDefinition({
  workspaceId,
  server,
  tool,
}: {
  workspaceId: string;
  server: string;
  tool: string;
}): Promise<McpFingerprintRow | null> {
  const db = await getDb();
  const row = await db.mcpToolFingerprint.findUnique({
    where: { workspaceId_server_tool: { workspaceId, server, tool } },
    select: SELECT,
  });
  if (!row?.pendingHash || row.pendingDefinition === null) return null;
  const updated = await db.mcpToolFingerprint.updateManyAndReturn({
    where: { workspaceId, server, tool, pendingHash: row.pendingHash },
    data: { hash: row.pendingHash, definition: row.pendingDefinition, pendingHash: null, pendingDefinition: null },
    select: SELECT,
  });
  return updated[0] ?? null;
}

/** A server removed: its tools' approvals go with it (a new server of the same name starts afresh). */
export async function deleteMcpFingerprints({
  workspaceId,
  server,
}: {
  workspaceId: string;
  server: string;
}): Promise<void> {
  const db = await getDb();
  await db.mcpToolFingerprint.deleteMany({ where: { workspaceId, server } });
}

/**
 * A server's full listing: the tools it has now are `listed`, the others not. Returns whether anything flipped (a
 * tool came back or went away). The rows are read and the flips written by name in batches (a listing may be long).
 */
export async function setListedTools({
  workspaceId,
  server,
  tools,
}: {
  workspaceId: string;
  server: string;
  tools: readonly string[];
}): Promise<boolean> {
  const db = await getDb();
  const now = new Set(tools);
  const rows = await db.mcpToolFingerprint.findMany({
    where: { workspaceId, server },
    select: { tool: true, listed: true },
  });
  const gone = rows.filter((r) => r.listed && !now.has(r.tool)).map((r) => r.tool);
  const back = rows.filter((r) => !r.listed && now.has(r.tool)).map((r) => r.tool);
  let flipped = 0;
  for (const [names, listed] of [
    ...batches(gone).map((b) => [b, false] as const),
    ...batches(back).map((b) => [b, true] as const),
  ]) {
    flipped += (
      await db.mcpToolFingerprint.updateMany({
        where: { workspaceId, server, listed: !listed, tool: { in: names } },
        data: { listed },
      })
    ).count;
  }
  return flipped > 0;
}

export type McpCatalogRow = { server: string; tool: string; definition: string; listed: boolean };

/** Every tool the workspace's servers ever listed, with its approved definition and whether the last listing had it. */
export async function listMcpCatalog({ workspaceId }: { workspaceId: string }): Promise<McpCatalogRow[]> {
  const db = await getDb();
  return db.mcpToolFingerprint.findMany({
    where: { workspaceId },
    select: { server: true, tool: true, definition: true, listed: true },
  });
}
