// Revoked sign-in sessions (see lib/auth.ts). A row outlives its cookie by nothing: once the cookie would have
// expired, its HMAC check refuses it anyway and the row is pruned.
import { getDb } from "./client.ts";

/** Whether a session was signed out (a row whose cookie has expired counts too: its HMAC check refuses it anyway). */
export async function isRevokedSession(id: string): Promise<boolean> {
  const db = await getDb();
  return (await db.revokedSession.findUnique({ where: { id }, select: { id: true } })) !== null;
}

export async function revokeSession({
  id,
  expiresAt,
  now = new Date(),
}: {
  id: string;
  expiresAt: Date;
  now?: Date;
}): Promise<void> {
  const db = await getDb();
  await db.$transaction([
    db.revokedSession.upsert({ where: { id }, create: { id, expiresAt }, update: {} }),
    db.revokedSession.deleteMany({ where: { expiresAt: { lte: now } } }),
  ]);
}
