// Search across conversations: titles (every word, anywhere in the title) and the text of settled messages through
// the database's full-text index (SQLite: the FTS5 table MessageFts kept by triggers; PostgreSQL: the GIN index
// Message_search_idx on the text parts' words). The last word also matches as a prefix (search as you type).
import { databaseUrl, getDb, isPostgresUrl } from "./client.ts";

export type SearchHit = { conversationId: string; messageId?: string; parts?: unknown };

/** The PostgreSQL expression the GIN index covers (it must be written exactly so for the index to be used). */
const PG_TEXT = `to_tsvector('simple', jsonb_path_query_array(m."parts", '$[*] ? (@.type == "text").text')::text)`;

/**
 * Conversations whose title holds every word, then those with a message holding every word (its newest such
 * message), newest first, at most `limit`. `words` are lower-case letters and digits only.
 */
export async function searchConversations({ words, workspaceId, limit }: { words: readonly string[]; workspaceId?: string; limit: number }): Promise<SearchHit[]> {
  if (words.length === 0) return [];
  const db = await getDb();
  const postgres = isPostgresUrl(databaseUrl());
  const titled = await db.conversation.findMany({
    where: { ...(workspaceId ? { workspaceId } : {}), AND: words.map((w) => ({ title: { contains: w, ...(postgres ? { mode: "insensitive" as const } : {}) } })) },
    orderBy: { updatedAt: "desc" },
    take: limit,
    select: { id: true },
  });
  const args: unknown[] = [];
  const arg = (value: unknown) => {
    args.push(value);
    return postgres ? `$${args.length}` : "?";
  };
  let rows: Array<{ conversationId: string; position: number | bigint }>;
  if (postgres) {
    const query = words.map((w, i) => (i === words.length - 1 ? `'${w}':*` : `'${w}'`)).join(" & ");
    rows = await db.$queryRawUnsafe(
      `SELECT m."conversationId" AS "conversationId", max(m."position") AS "position" FROM "Message" m JOIN "Conversation" c ON c."id" = m."conversationId"
       WHERE ${PG_TEXT} @@ to_tsquery('simple', ${arg(query)}) AND m."status" <> 'streaming'${workspaceId ? ` AND c."workspaceId" = ${arg(workspaceId)}` : ""}
       GROUP BY m."conversationId" ORDER BY max(c."updatedAt") DESC LIMIT ${arg(limit)}`,
      ...args,
    );
  } else {
    const match = words.map((w, i) => (i === words.length - 1 ? `"${w}"*` : `"${w}"`)).join(" ");
    rows = await db.$queryRawUnsafe(
      `SELECT m."conversationId" AS "conversationId", max(m."position") AS "position" FROM "MessageFts" f JOIN "Message" m ON m."rowid" = f."rowid"
       JOIN "Conversation" c ON c."id" = m."conversationId"
       WHERE "MessageFts" MATCH ${arg(match)}${workspaceId ? ` AND c."workspaceId" = ${arg(workspaceId)}` : ""}
       GROUP BY m."conversationId" ORDER BY max(c."updatedAt") DESC LIMIT ${arg(limit)}`,
      ...args,
    );
  }
  const messages = rows.length
    ? await db.message.findMany({
        where: { OR: rows.map((r) => ({ conversationId: r.conversationId, position: Number(r.position) })) },
        select: { conversationId: true, id: true, parts: true },
      })
    : [];
  const byConversation = new Map(messages.map((m) => [m.conversationId, m]));
  const hits: SearchHit[] = titled.map((c) => ({ conversationId: c.id }));
  const seen = new Set(hits.map((h) => h.conversationId));
  for (const row of rows) {
    if (seen.has(row.conversationId)) continue;
    const message = byConversation.get(row.conversationId);
    hits.push({ conversationId: row.conversationId, ...(message ? { messageId: message.id, parts: message.parts } : {}) });
  }
  return hits.slice(0, limit);
}
