// Queries for the Workspace aggregate: the workspace row itself (its memory, knowledge and skills have their own
// modules). "default" always exists: its migration creates it and nothing here deletes it.
import { getDb, lockedTransaction } from "./client.ts";

export const DEFAULT_WORKSPACE_ID = "default";
/** The id prefix of a user's own level of skills and agents (lib/db/ownership.ts): a workspace row no list shows. */
export const USER_LEVEL_PREFIX = "user-";

/** "default", or a user's own default in accounts mode (default-<user id>): neither is renamed or deleted. */
export const isDefaultWorkspace = (id: string) =>
  id === DEFAULT_WORKSPACE_ID || id.startsWith(`${DEFAULT_WORKSPACE_ID}-`);

/** shared: every signed-in user of accounts mode may use it (always false in open and token mode). */
export type WorkspaceSummary = { id: string; name: string; shared: boolean; createdAt: string; updatedAt: string };
export type Workspace = WorkspaceSummary & { instructions: string };

type WorkspaceRow = {
  id: string;
  name: string;
  shared: boolean;
  instructions: string;
  createdAt: Date;
  updatedAt: Date;
};

const toWorkspace = (row: WorkspaceRow): Workspace => ({
  id: row.id,
  name: row.name,
  shared: row.shared,
  instructions: row.instructions,
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

/** A unique constraint was violated (Prisma's P2002), or a row still points here (P2003). */
export const isUniqueViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === "P2002";
export const isForeignKeyViolation = (error: unknown) => (error as { code?: unknown } | null)?.code === "P2003";

/**
 * The workspaces a viewer sees (every one; with `userId`, the user's own and the shared ones), their default first
 * (`defaultId`), then by name.
 */
export async function listWorkspaces({
  userId,
  defaultId = DEFAULT_WORKSPACE_ID,
}: {
  userId?: string;
  defaultId?: string;
} = {}): Promise<(WorkspaceSummary & { ownerId: string | null })[]> {
  const db = await getDb();
  const rows = await db.workspace.findMany({
    where: {
      ...(userId === undefined ? {} : { OR: [{ ownerId: userId }, { shared: true }] }),
      NOT: { id: { startsWith: USER_LEVEL_PREFIX } },
    },
    select: { id: true, name: true, shared: true, ownerId: true, createdAt: true, updatedAt: true },
    orderBy: { name: "asc" },
  });
  const summaries = rows.map((r) => ({
    ...r,
    createdAt: r.createdAt.toISOString(),
    updatedAt: r.updatedAt.toISOString(),
  }));
  return [...summaries.filter((w) => w.id === defaultId), ...summaries.filter((w) => w.id !== defaultId)];
}

export async function getWorkspace({ id }: { id: string }): Promise<Workspace | null> {
  const db = await getDb();
  const row = await db.workspace.findUnique({ where: { id } });
  return row ? toWorkspace(row) : null;
}

/** The owner's workspace of that name (names are unique per owner; null: the one person of open or token mode). */
export async function findWorkspaceByName({
  name,
  ownerId = null,
}: {
  name: string;
  ownerId?: string | null;
}): Promise<WorkspaceSummary | null> {
  const db = await getDb();
  const row = await db.workspace.findFirst({ where: { name, ownerId } });
  return row ? toWorkspace(row) : null;
}

// The database's unique index does not compare null owners (open and token mode): the name is checked here as well.
const nameTaken = () =>
  Object.assign(new Error("Unique constraint failed on the fields: (`ownerId`,`name`)"), { code: "P2002" });

/**
 * "limit" when the owner has `max` workspaces already (counted under a lock, so concurrent creates cannot pass it);
 * throws Prisma's P2002 when the owner has one of that name.
 */
export async function createWorkspace({
  id,
  name,
  instructions = "",
  max,
  ownerId = null,
  shared = false,
}: {
  id: string;
  name: string;
  instructions?: string;
  max: number;
  ownerId?: string | null;
  shared?: boolean;
}): Promise<Workspace | "limit"> {
  return lockedTransaction("workspaces", async (tx) => {
    if ((await tx.workspace.count({ where: { ownerId, NOT: { id: { startsWith: USER_LEVEL_PREFIX } } } })) >= max)
      return "limit" as const;
    if (await tx.workspace.findFirst({ where: { ownerId, name }, select: { id: true } })) throw nameTaken();
    return toWorkspace(await tx.workspace.create({ data: { id, name, instructions, ownerId, shared } }));
  });
}

/** null when it does not exist; throws Prisma's P2002 when the new name is taken. */
export async function updateWorkspace({
  id,
  name,
  instructions,
}: {
  id: string;
  name?: string;
  instructions?: string;
}): Promise<Workspace | null> {
  const db = await getDb();
  if (name !== undefined) {
    const current = await db.workspace.findUnique({ where: { id }, select: { ownerId: true } });
    if (
      current &&
      (await db.workspace.findFirst({
        where: { ownerId: current.ownerId, name, id: { not: id } },
        select: { id: true },
      }))
    )
      throw nameTaken();
  }
  const rows = await db.workspace.updateManyAndReturn({
    where: { id },
    data: { ...(name !== undefined ? { name } : {}), ...(instructions !== undefined ? { instructions } : {}) },
  });
  return rows[0] ? toWorkspace(rows[0]) : null;
}

/** The workspace's stored settings as JSON (read defensively by the caller); undefined when it does not exist. */
export async function getWorkspaceSettings({ id }: { id: string }): Promise<unknown> {
  const db = await getDb();
  const row = await db.workspace.findUnique({ where: { id }, select: { settings: true } });
  return row ? (row.settings ?? null) : undefined;
}

/** false when the workspace does not exist. */
export async function setWorkspaceSettings({ id, settings }: { id: string; settings: object }): Promise<boolean> {
  const db = await getDb();
  return (await db.workspace.updateMany({ where: { id }, data: { settings } })).count > 0;
}

export async function countWorkspaceConversations({ id }: { id: string }): Promise<number> {
  const db = await getDb();
  return db.conversation.count({ where: { workspaceId: id } });
}

/**
 * Deletes the workspace with its memory, knowledge and skills; false when it does not exist. Throws Prisma's P2003
 * when a conversation still belongs to it (the foreign key restricts, so a conversation created meanwhile is safe).
 */
export async function deleteWorkspace({ id }: { id: string }): Promise<boolean> {
  const db = await getDb();
  const result = await db.workspace.deleteMany({ where: { id } });
  return result.count > 0;
}
