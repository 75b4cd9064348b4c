// Queries for the cache-break detector's baseline of a conversation (its last model call as hashes): one small row,
// written after every model call and read at the start of a reply.
import { getDb, sqliteDirect } from "./client.ts";

export type StoredCacheBaseline = { version: string; data: unknown };

export async function getCacheBaseline({
  conversationId,
}: {
  conversationId: string;
}): Promise<StoredCacheBaseline | null> {
  const db = await getDb();
  return db.cacheBaseline.findUnique({ where: { conversationId }, select: { version: true, data: true } });
}

/** Only the stored baseline's version: an instance that wrote it last holds its data already (2,000 hashes, say). */
export async function getCacheBaselineVersion({ conversationId }: { conversationId: string }): Promise<string | null> {
  const direct = sqliteDirect();
  if (direct) return direct.cacheBaselineVersion(conversationId);
  const db = await getDb();
  const row = await db.cacheBaseline.findUnique({ where: { conversationId }, select: { version: true } });
  return row?.version ?? null;
}

/** Writes the baseline (fails when the conversation is gone: it was deleted while its reply ran). */
export async function putCacheBaseline({
  conversationId,
  version,
  data,
}: {
  conversationId: string;
  version: string;
  data: object;
}): Promise<void> {
  const db = await getDb();
  const direct = sqliteDirect();
  if (direct) return direct.putCacheBaseline(conversationId, version, data);
  await db.cacheBaseline.upsert({
    where: { conversationId },
    create: { conversationId, version, data },
    update: { version, data },
    select: { conversationId: true },
  });
}
