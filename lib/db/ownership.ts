// Who owns a conversation or workspace (accounts mode), read for lib/auth/scope.ts's checks.
import { getDb } from "./client.ts";

/** undefined when the conversation does not exist; null when it belongs to the one person of open or token mode. */
export async function conversationOwner({ id }: { id: string }): Promise<string | null | undefined> {
  const row = await (await getDb()).conversation.findUnique({ where: { id }, select: { ownerId: true } });
  return row ? row.ownerId : undefined;
}

export async function workspaceOwnership({ id }: { id: string }): Promise<{ ownerId: string | null; shared: boolean } | null> {
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

/**
 * Whether a workspace's conversations also see "default"'s skills and agents: in open and token mode every workspace
 * does; in accounts mode only the private workspaces of default's owner (the first admin), so that no one's private
 * definitions reach another user's prompt.
 */
export async function inheritsDefault({ workspaceId }: { workspaceId: string }): Promise<boolean> {
  if (workspaceId === "default") return false;
  const rows = await (await getDb()).workspace.findMany({ where: { id: { in: [workspaceId, "default"] } }, select: { id: true, ownerId: true, shared: true } });
  const own = rows.find((r) => r.id === workspaceId);
  const base = rows.find((r) => r.id === "default");
  return own !== undefined && base !== undefined && !own.shared && own.ownerId === base.ownerId;
}
