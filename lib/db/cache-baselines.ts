// Queries for the cache-break detector's baseline of a conversation (its last model call as hashes): one small row,
// written after every model call and read at the start of a reply.
import { getDb } from "./client.ts";

export type StoredCacheBaseline = { version: string; data: unknown };

export async function getCacheBaseline({ conversationId }: { conversationId: string }): Promise<StoredCacheBaseline | null> {
  const db = await getDb();
  return db.cacheBaseline.findUnique({ where: { conversationId }, select: { version: true, data: true } });
}

/** Writes the baseline (fails when the conversation is gone: it was deleted while its reply ran). */
export async function putCacheBaseline({ conversationId, version, data }: { conversationId: string; version: string; data: object }): Promise<void> {
  const db = await getDb();
  await db.cacheBaseline.upsert({ where: { conversationId }, create: { conversationId, version, data }, update: { version, data } });
}
