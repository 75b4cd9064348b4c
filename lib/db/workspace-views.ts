// Queries for a conversation's view of its workspace (frozen in its system prompt, and as its agent last heard of it)
// and for the workspaces' revision counters.
import { databaseUrl, getDb, isPostgresUrl, sqliteDirect } from "./client.ts";
import { WORKSPACE_STATUS_SQL, type WorkspaceStatusRow } from "./sqlite-direct.ts";
import { DEFAULT_WORKSPACE_ID } from "./workspaces.ts";

/**
 * "<workspace>:<default's>" or "<workspace>:<default's>:<owner's own>", each a counter that only grows: a conversation
 * also sees its owner's default workspace's and own level's skills and agents. The third is left out while the owner
 * has no own level (always in open and token mode).
 */
export type WorkspaceRevision = string;

export type WorkspaceViewStatus = {
  workspaceId: string;
  /** The conversation's owner (null: the one person of open and token mode), whose levels it sees. */
  ownerId: string | null;
  revision: WorkspaceRevision;
  frozenId: string | null;
  seenRevision: string | null;
};
export type WorkspaceView<T = unknown> = { frozenId: string; frozen: T; seenRevision: string; seen: T };

type StatusRow = Omit<WorkspaceStatusRow, "ws" | "def" | "usr"> & {
  ws: number | bigint;
  def: number | bigint | null;
  usr: number | bigint | null;
};

/** What one step needs to know, in one small query: the workspace's revisions and the view's keys (null: no view yet). */
export async function workspaceViewStatus({
  conversationId,
}: {
  conversationId: string;
}): Promise<WorkspaceViewStatus | null> {
  const db = await getDb();
  const direct = sqliteDirect();
  let row: StatusRow | undefined;
  if (direct) row = direct.workspaceViewStatus(conversationId, DEFAULT_WORKSPACE_ID);
  else {
    // SQLite binds "?" in the order they appear: the arguments follow the text's order.
    const sql = isPostgresUrl(databaseUrl())
      ? WORKSPACE_STATUS_SQL.replace("?", "$1").replace("?", "$2")
      : WORKSPACE_STATUS_SQL;
    row = (await db.$queryRawUnsafe<StatusRow[]>(sql, DEFAULT_WORKSPACE_ID, conversationId))[0];
  }
  return row ? workspaceStatusOf(row) : null;
}

/** A status row (this module's query, or the step's read in step-state.ts) as the status. */
export function workspaceStatusOf(row: StatusRow): WorkspaceViewStatus {
  const own = Number(row.usr ?? 0);
  const revision = `${Number(row.ws)}:${Number(row.def ?? 0)}${own ? `:${own}` : ""}`;
  return {
    workspaceId: row.workspaceId,
    ownerId: row.ownerId ?? null,
    revision,
    frozenId: row.frozenId,
    seenRevision: row.seenRevision,
  };
}

export async function getWorkspaceView({ conversationId }: { conversationId: string }): Promise<WorkspaceView | null> {
  const db = await getDb();
  return db.conversationWorkspace.findUnique({
    where: { conversationId },
    select: { frozenId: true, frozen: true, seenRevision: true, seen: true },
  });
}

export async function putWorkspaceView({
  conversationId,
  ...data
}: WorkspaceView<object> & { conversationId: string }): Promise<void> {
  const db = await getDb();
  const direct = sqliteDirect();
  if (direct) return direct.putWorkspaceView(conversationId, data);
  await db.conversationWorkspace.upsert({
    where: { conversationId },
    create: { conversationId, ...data },
    update: data,
  });
}

export async function setWorkspaceSeen({
  conversationId,
  seenRevision,
  seen,
}: {
  conversationId: string;
  seenRevision: string;
  seen: object;
}): Promise<void> {
  const db = await getDb();
  await db.conversationWorkspace.updateMany({ where: { conversationId }, data: { seenRevision, seen } });
}

/** Marks a change to the workspace or anything it holds (after the change, so a reader never misses it). */
export async function bumpWorkspaceRevision({ workspaceId }: { workspaceId: string }): Promise<void> {
  const db = await getDb();
  await db.workspace.updateMany({ where: { id: workspaceId }, data: { revision: { increment: 1 } } });
}
