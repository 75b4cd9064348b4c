// Queries for a workspace's MCP servers (one row per kebab-case name). Header values are stored as they came and
// handed only to the code that connects; everything that answers the API masks them (lib/chat/mcp-servers.ts).
import { getDb, lockedTransaction, sqliteDirect } from "./client.ts";
import type { McpServerStoredRow } from "./rows.ts";

export type McpServerRow = {
  workspaceId: string;
  name: string;
  url: string;
  headers: Record<string, string>;
  approval: string;
  enabled: boolean;
  timeoutSeconds: number | null;
  alwaysAllow: string[];
  createdAt: string;
  updatedAt: string;
};

type Row = McpServerStoredRow;

const stringRecord = (value: unknown): Record<string, string> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};
const stringList = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];

const toServer = (row: Row): McpServerRow => ({
  ...row,
  headers: stringRecord(row.headers),
  alwaysAllow: stringList(row.alwaysAllow),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listMcpServers({ workspaceId }: { workspaceId: string }): Promise<McpServerRow[]> {
  const db = await getDb();
  const direct = sqliteDirect();
  if (direct) return direct.mcpServers(workspaceId).map(toServer);
  return (await db.mcpServer.findMany({ where: { workspaceId }, orderBy: { name: "asc" } })).map(toServer);
}

export async function getMcpServer({
  workspaceId,
  name,
}: {
  workspaceId: string;
  name: string;
}): Promise<McpServerRow | null> {
  const db = await getDb();
  const row = await db.mcpServer.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  return row ? toServer(row) : null;
}

export type McpServerInput = {
  url: string;
  headers?: Record<string, string>;
  approval?: string;
  enabled?: boolean;
  timeoutSeconds?: number | null;
};

/** "limit" when the workspace has `max` servers already; throws Prisma's P2002 when the name is taken. */
export async function createMcpServer({
  max,
  workspaceId,
  name,
  ...input
}: McpServerInput & { workspaceId: string; name: string; max: number }): Promise<McpServerRow | "limit"> {
  return lockedTransaction(`mcp-servers:${workspaceId}`, async (tx) => {
    if ((await tx.mcpServer.count({ where: { workspaceId } })) >= max) return "limit" as const;
    return toServer(await tx.mcpServer.create({ data: { workspaceId, name, ...input, headers: input.headers ?? {} } }));
  });
}

export async function updateMcpServer({
  workspaceId,
  name,
  ...input
}: Partial<McpServerInput> & {
  workspaceId: string;
  name: string;
  alwaysAllow?: string[];
}): Promise<McpServerRow | null> {
  const db = await getDb();
  const data = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const rows = await db.mcpServer.updateManyAndReturn({ where: { workspaceId, name }, data });
  return rows[0] ? toServer(rows[0]) : null;
}

export async function deleteMcpServer({ workspaceId, name }: { workspaceId: string; name: string }): Promise<boolean> {
  const db = await getDb();
  return (await db.mcpServer.deleteMany({ where: { workspaceId, name } })).count > 0;
}
