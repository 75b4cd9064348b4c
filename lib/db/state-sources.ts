// Queries for a workspace's state sources (one row per kebab-case name). Header values are stored sealed
// (lib/chat/state-sources.ts seals and opens them); nothing here hands them to a response.
import { getDb, lockedTransaction } from "./client.ts";

export type StateSourceRow = {
  workspaceId: string;
  name: string;
  kind: string;
  url: string | null;
  /** { header name: sealed value } */
  headers: Record<string, string>;
  server: string | null;
  uri: string | null;
  refreshSeconds: number;
  timeoutSeconds: number;
  maxTokens: number;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
};

type Stored = Omit<StateSourceRow, "headers" | "createdAt" | "updatedAt"> & {
  headers: unknown;
  createdAt: Date;
  updatedAt: Date;
};

const stringRecord = (value: unknown): Record<string, string> =>
  value && typeof value === "object" && !Array.isArray(value)
    ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};

const toSource = (row: Stored): StateSourceRow => ({
  ...row,
  headers: stringRecord(row.headers),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listStateSources({ workspaceId }: { workspaceId: string }): Promise<StateSourceRow[]> {
  const db = await getDb();
  return (await db.stateSource.findMany({ where: { workspaceId }, orderBy: { name: "asc" } })).map(toSource);
}

export async function getStateSource({
  workspaceId,
  name,
}: {
  workspaceId: string;
  name: string;
}): Promise<StateSourceRow | null> {
  const db = await getDb();
  const row = await db.stateSource.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
  return row ? toSource(row) : null;
}

export type StateSourceInput = {
  kind: string;
  url?: string | null;
  headers?: Record<string, string>;
  server?: string | null;
  uri?: string | null;
  refreshSeconds?: number;
  timeoutSeconds?: number;
  maxTokens?: number;
  enabled?: boolean;
};

/** "limit" when the workspace has `max` sources already; throws Prisma's P2002 when the name is taken. */
export async function createStateSource({
  max,
  workspaceId,
  name,
  ...input
}: StateSourceInput & { workspaceId: string; name: string; max: number }): Promise<StateSourceRow | "limit"> {
  return lockedTransaction(`state-sources:${workspaceId}`, async (tx) => {
    if ((await tx.stateSource.count({ where: { workspaceId } })) >= max) return "limit" as const;
    return toSource(
      await tx.stateSource.create({ data: { workspaceId, name, ...input, headers: input.headers ?? {} } }),
    );
  });
}

export async function updateStateSource({
  workspaceId,
  name,
  ...input
}: Partial<StateSourceInput> & { workspaceId: string; name: string }): Promise<StateSourceRow | null> {
  const db = await getDb();
  const data = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const rows = await db.stateSource.updateManyAndReturn({ where: { workspaceId, name }, data });
  return rows[0] ? toSource(rows[0]) : null;
}

export async function deleteStateSource({
  workspaceId,
  name,
}: {
  workspaceId: string;
  name: string;
}): Promise<boolean> {
  const db = await getDb();
  return (await db.stateSource.deleteMany({ where: { workspaceId, name } })).count > 0;
}
