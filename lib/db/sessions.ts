// Revoked sign-in sessions (see lib/auth.ts). A row outlives its cookie by nothing: once the cookie would have
// expired, its HMAC check refuses it anyway and the row is pruned.
import { getDb } from "./client.ts";

export async function listRevokedSessions({ now = new Date() } = {}): Promise<string[]> {
  const db = await getDb();
  const rows = await db.revokedSession.findMany({ where: { expiresAt: { gt: now } }, select: { id: true } });
  return rows.map((row) => row.id);
}

export async function revokeSession({ id, expiresAt, now = new Date() }: { id: string; expiresAt: Date; now?: Date }): Promise<void> {
  const db = await getDb();
  await db.$transaction([
    db.revokedSession.upsert({ where: { id }, create: { id, expiresAt }, update: {} }),
    db.revokedSession.deleteMany({ where: { expiresAt: { lte: now } } }),
  ]);
}
