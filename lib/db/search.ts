// Search across conversations: titles (every word, anywhere in the title) and the text of settled messages through
// the database's full-text index (SQLite: the FTS5 table MessageFts kept by triggers; PostgreSQL: the GIN index
// Message_search_text_idx), which holds the text parts' words and those of the text the file parts keep (an attached text
// file's, a PDF's pages). The last word also matches as a prefix (search as you type).
// A word index sees a run of Chinese or Japanese as one word, so a query holding such text reads the newest messages
// instead (at most UNSPACED_SCAN_MESSAGES) for every word as a substring, and the caller checks the text found.
import { databaseUrl, getDb, isPostgresUrl } from "./client.ts";

export type SearchHit = { conversationId: string; messageId?: string; parts?: unknown };

/** How many of the newest messages a search for text without spaces between words reads at most. */
export const UNSPACED_SCAN_MESSAGES = 20_000;

/** A search by substring: every word must occur in a message's stored parts, and `accept` decides on their text. */
export type SubstringSearch = { accept: (parts: unknown) => boolean };

type MatchRow = { conversationId: string; position: number | bigint };

/**
 * The newest message holding every word (in its stored parts, lower-cased) of each conversation among the newest
 * UNSPACED_SCAN_MESSAGES messages, newest conversation first: one row per conversation, so a word found in thousands
 * of messages costs no more to answer.
 */
/**
 * Which conversations a search looks in: one workspace's or those of some workspaces (`workspaceIds`), one owner's
 * (accounts mode), or all.
 */
type SearchScope = { workspaceId?: string; workspaceIds?: readonly string[]; ownerId?: string };

/** The SQL conditions on the conversation `c` for a scope, each value passed through `arg`. */
function scopeSql(scope: SearchScope, arg: (value: unknown) => string): string {
  const among = scope.workspaceIds;
  return (
    (scope.workspaceId ? ` AND c."workspaceId" = ${arg(scope.workspaceId)}` : "") +
    (among ? ` AND c."workspaceId" IN (${among.length ? among.map(arg).join(", ") : "NULL"})` : "") +
    (scope.ownerId !== undefined ? ` AND c."ownerId" = ${arg(scope.ownerId)}` : "")
  );
}

async function substringRows(
  db: Awaited<ReturnType<typeof getDb>>,
  postgres: boolean,
  words: readonly string[],
  scope: SearchScope,
  limit: number,
): Promise<MatchRow[]> {
  const args: unknown[] = [UNSPACED_SCAN_MESSAGES];
  const arg = (value: unknown) => {
    args.push(value);
    return postgres ? `$${args.length}` : "?";
  };
  const recent = postgres
    ? `m."createdAt" >= coalesce((SELECT "createdAt" FROM "Message" ORDER BY "createdAt" DESC OFFSET $1::integer - 1 LIMIT 1), '-infinity')`
    : `m."rowid" > (SELECT coalesce(max("rowid"), 0) FROM "Message") - ?`;
  const holds = words
    .map((w) => (postgres ? `strpos(lower(m."parts"::text), ${arg(w)}) > 0` : `instr(lower(m."parts"), ${arg(w)}) > 0`))
    .join(" AND ");
  return db.$queryRawUnsafe(
    `SELECT m."conversationId" AS "conversationId", max(m."position") AS "position" FROM "Message" m JOIN "Conversation" c ON c."id" = m."conversationId"
     WHERE ${recent} AND m."status" <> 'streaming' AND ${holds}${scopeSql(scope, arg)}
     GROUP BY m."conversationId" ORDER BY max(c."updatedAt") DESC LIMIT ${arg(limit)}`,
    ...args,
  );
}

/**
 * The PostgreSQL expression the GIN index covers (it must be written exactly so for the index to be used): the words
 * of every string in the text parts and in the file parts' kept text.
 */
const PG_TEXT = `jsonb_to_tsvector('simple', jsonb_path_query_array(m."parts", '$[*] ? (@.type == "text").text') || jsonb_path_query_array(m."parts", '$[*] ? (@.type == "file").providerMetadata.hintline'), '["string"]')`;

/**
 * Conversations whose title holds every word, then those with a message holding every word (its newest such
 * message), newest first, at most `limit`. `words` are lower-case letters and digits only.
 */
export async function searchConversations({
  words,
  workspaceId,
  workspaceIds,
  ownerId,
  limit,
  substring,
}: {
  words: readonly string[];
  workspaceId?: string;
  /** Only conversations in these workspaces (the ones the viewer sees). */
  workspaceIds?: readonly string[];
  /** Accounts mode: only this user's conversations. */
  ownerId?: string;
  limit: number;
  /** Search message text by substring instead of through the word index. */
  substring?: SubstringSearch;
}): Promise<SearchHit[]> {
  if (words.length === 0) return [];
  const db = await getDb();
  const postgres = isPostgresUrl(databaseUrl());
  const titled = await db.conversation.findMany({
    where: {
      ...(workspaceId ? { workspaceId } : {}),
      ...(workspaceIds ? { workspaceId: { in: [...workspaceIds] } } : {}),
      ...(ownerId !== undefined ? { ownerId } : {}),
      AND: words.map((w) => ({ title: { contains: w, ...(postgres ? { mode: "insensitive" as const } : {}) } })),
    },
    orderBy: { updatedAt: "desc" },
    take: limit,
    select: { id: true },
  });
  const scope = { workspaceId, workspaceIds, ownerId };
  const args: unknown[] = [];
  const arg = (value: unknown) => {
    args.push(value);
    return postgres ? `$${args.length}` : "?";
  };
  let rows: MatchRow[];
  if (substring) {
    rows = await substringRows(db, postgres, words, scope, limit);
  } else if (postgres) {
    const query = words.map((w, i) => (i === words.length - 1 ? `'${w}':*` : `'${w}'`)).join(" & ");
    rows = await db.$queryRawUnsafe(
      `SELECT m."conversationId" AS "conversationId", max(m."position") AS "position" FROM "Message" m JOIN "Conversation" c ON c."id" = m."conversationId"
       WHERE ${PG_TEXT} @@ to_tsquery('simple', ${arg(query)}) AND m."status" <> 'streaming'${scopeSql(scope, arg)}
       GROUP BY m."conversationId" ORDER BY max(c."updatedAt") DESC LIMIT ${arg(limit)}`,
      ...args,
    );
  } else {
    const match = words.map((w, i) => (i === words.length - 1 ? `"${w}"*` : `"${w}"`)).join(" ");
    rows = await db.$queryRawUnsafe(
      `SELECT m."conversationId" AS "conversationId", max(m."position") AS "position" FROM "MessageFts" f JOIN "Message" m ON m."rowid" = f."rowid"
       JOIN "Conversation" c ON c."id" = m."conversationId"
       WHERE "MessageFts" MATCH ${arg(match)}${scopeSql(scope, arg)}
       GROUP BY m."conversationId" ORDER BY max(c."updatedAt") DESC LIMIT ${arg(limit)}`,
      ...args,
    );
  }
  const found = rows.length
    ? await db.message.findMany({
        where: { OR: rows.map((r) => ({ conversationId: r.conversationId, position: Number(r.position) })) },
        select: { conversationId: true, id: true, parts: true },
      })
    : [];
  // A substring found only outside the text parts (a tool's arguments) or only before NFKC is no match.
  const messages = substring ? found.filter((m) => substring.accept(m.parts)) : found;
  const byConversation = new Map(messages.map((m) => [m.conversationId, m]));
  const hits: SearchHit[] = titled.map((c) => ({ conversationId: c.id }));
  const seen = new Set(hits.map((h) => h.conversationId));
  for (const row of rows) {
    if (seen.has(row.conversationId)) continue;
    const message = byConversation.get(row.conversationId);
    if (substring && !message) continue;
    hits.push({
      conversationId: row.conversationId,
      ...(message ? { messageId: message.id, parts: message.parts } : {}),
    });
  }
  return hits.slice(0, limit);
}
