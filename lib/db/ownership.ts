// Who owns a conversation or workspace (accounts mode), read for lib/auth/scope.ts's checks.
import { getDb } from "./client.ts";
import { USER_LEVEL_PREFIX } from "./workspaces.ts";

/** undefined when the conversation does not exist; null when it belongs to the one person of open or token mode. */
export async function conversationOwner({ id }: { id: string }): Promise<string | null | undefined> {
  const row = await (await getDb()).conversation.findUnique({ where: { id }, select: { ownerId: true } });
  return row ? row.ownerId : undefined;
}

export async function workspaceOwnership({
  id,
}: {
  id: string;
}): Promise<{ ownerId: string | null; shared: boolean } | null> {
  return (await getDb()).workspace.findUnique({ where: { id }, select: { ownerId: true, shared: true } });
}

/** The user's private "default" workspace, made on first use (id default-<user id>). */
export async function personalDefaultWorkspace({ userId }: { userId: string }): Promise<string> {
  const db = await getDb();
  const found = await db.workspace.findFirst({ where: { ownerId: userId, name: "default" }, select: { id: true } });
  if (found) return found.id;
  const id = `default-${userId}`;
  await db.workspace.upsert({ where: { id }, create: { id, name: "default", ownerId: userId }, update: {} });
  return id;
}

/** The container of a user's own skills and agents (accounts mode): a workspace row no list, route or chat shows. */
export const userLevelId = (userId: string) => `${USER_LEVEL_PREFIX}${userId}`;
export const isUserLevelId = (id: string) => id.startsWith(USER_LEVEL_PREFIX);
// A control character: no workspace a person names can take it (lib/api/workspace-schemas.ts refuses them).
const USER_LEVEL_NAME = "\u0001user";

/** The user's own level, made on their first write to it. */
export async function ensureUserLevel({ userId }: { userId: string }): Promise<string> {
  const id = userLevelId(userId);
  await (await getDb()).workspace.upsert({
    where: { id },
    create: { id, name: USER_LEVEL_NAME, ownerId: userId },
    update: {},
  });
  return id;
}

/**
 * Where a conversation's skills and agents come from besides its workspace, by its owner: the owner's own level
 * (highest; accounts mode), and the owner's default workspace (lowest) — "default" for the one person of open and token
 * mode, a user's private default in accounts mode — unless that is the conversation's workspace itself. So no one's
 * definitions reach another user's prompt, and a shared workspace's conversations each see their owner's levels.
 */
export async function definitionLevels({
  workspaceId,
  ownerId,
}: {
  workspaceId: string;
  ownerId: string | null;
}): Promise<{ user: string | null; base: string | null }> {
  if (ownerId === null) return { user: null, base: workspaceId === "default" ? null : "default" };
  const base =
    (await (await getDb()).workspace.findFirst({ where: { ownerId, name: "default" }, select: { id: true } }))?.id ??
    null;
  return { user: userLevelId(ownerId), base: base === workspaceId ? null : base };
}
