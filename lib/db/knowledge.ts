// Queries for a workspace's knowledge files (text, one row per path, indexed for search in bounded chunks).
import { databaseUrl, getDb, isPostgresUrl, lockedTransaction } from "./client.ts";
import { knowledgeChunks, matchingLines } from "./knowledge-chunks.ts";

export type KnowledgeFileInfo = { path: string; bytes: number; tokens: number; updatedAt: string };
export type KnowledgeFile = KnowledgeFileInfo & { content: string };

type Row = { path: string; bytes: number; tokens: number; updatedAt: Date; content?: string };

const toInfo = (row: Row): KnowledgeFileInfo => ({ path: row.path, bytes: row.bytes, tokens: row.tokens, updatedAt: row.updatedAt.toISOString() });

/** Every file, by path, without contents. */
export async function listKnowledge({ workspaceId }: { workspaceId: string }): Promise<KnowledgeFileInfo[]> {
  const db = await getDb();
  const rows = await db.knowledgeFile.findMany({
    where: { workspaceId },
    select: { path: true, bytes: true, tokens: true, updatedAt: true },
    orderBy: { path: "asc" },
  });
  return rows.map(toInfo);
}

export async function getKnowledgeFile({ workspaceId, path }: { workspaceId: string; path: string }): Promise<KnowledgeFile | null> {
  const db = await getDb();
  const row = await db.knowledgeFile.findUnique({ where: { workspaceId_path: { workspaceId, path } } });
  return row ? { ...toInfo(row), content: row.content } : null;
}

/**
 * Creates or replaces the file; `maxFiles` is checked for a new path in the same transaction, under the workspace's
 * knowledge lock, so racing uploads cannot pass it. "limit" when a new file would be one too many.
 */
export async function putKnowledgeFile(file: {
  workspaceId: string;
  path: string;
  content: string;
  bytes: number;
  tokens: number;
  maxFiles: number;
}): Promise<{ file: KnowledgeFileInfo; created: boolean } | "limit"> {
  const { workspaceId, path, content, bytes, tokens, maxFiles } = file;
  const chunks = knowledgeChunks(content);
  return lockedTransaction(`knowledge:${workspaceId}`, async (tx) => {
    const key = { workspaceId_path: { workspaceId, path } };
    const existing = await tx.knowledgeFile.findUnique({ where: key, select: { path: true } });
    if (!existing && (await tx.knowledgeFile.count({ where: { workspaceId } })) >= maxFiles) return "limit" as const;
    const row = await tx.knowledgeFile.upsert({
      where: key,
      create: { workspaceId, path, content, bytes, tokens },
      update: { content, bytes, tokens },
      select: { path: true, bytes: true, tokens: true, updatedAt: true },
    });
    // The chunks the full-text index covers (the migrations' triggers / GIN index keep it in step): a few hundred
    // rows at most for a 1 MiB file, whatever its shape.
    await tx.knowledgeChunk.deleteMany({ where: { workspaceId, path } });
    if (chunks.length) await tx.knowledgeChunk.createMany({ data: chunks.map((c) => ({ workspaceId, path, ...c })) });
    return { file: toInfo(row), created: !existing };
  });
}

export async function deleteKnowledgeFile({ workspaceId, path }: { workspaceId: string; path: string }): Promise<boolean> {
  const db = await getDb();
  return (await db.knowledgeFile.deleteMany({ where: { workspaceId, path } })).count > 0;
}

export type KnowledgeLineMatch = { path: string; line: number; text: string };

/** Chunks read per query while looking for matching lines, and the most a search reads in all. */
const CHUNK_PAGE = 100;
const MAX_CHUNKS_READ = 500;

type ChunkRow = { path: string; firstLine: number | bigint; text: string };

/** Chunks of the workspace's files holding the words (all, or any), best first, through the full-text index. */
async function matchingChunks(workspaceId: string, words: readonly string[], anyWord: boolean, offset: number): Promise<ChunkRow[]> {
  const db = await getDb();
  if (isPostgresUrl(databaseUrl())) {
    const query = words.map((w) => `'${w}'`).join(anyWord ? " | " : " & ");
    return db.$queryRawUnsafe<ChunkRow[]>(
      `SELECT "path", "firstLine", "text" FROM "KnowledgeChunk"
       WHERE "workspaceId" = $1 AND to_tsvector('simple', "text") @@ to_tsquery('simple', $2)
       ORDER BY ts_rank(to_tsvector('simple', "text"), to_tsquery('simple', $2)) DESC, "path", "seq" LIMIT $3 OFFSET $4`,
      workspaceId,
      query,
      CHUNK_PAGE,
      offset,
    );
  }
  const match = words.map((w) => `"${w}"`).join(anyWord ? " OR " : " ");
  return db.$queryRawUnsafe<ChunkRow[]>(
    `SELECT c."path", c."firstLine", c."text" FROM "KnowledgeChunkFts" f JOIN "KnowledgeChunk" c ON c."rowid" = f."rowid"
     WHERE "KnowledgeChunkFts" MATCH ? AND c."workspaceId" = ? ORDER BY f."rank", c."path", c."seq" LIMIT ? OFFSET ?`,
    match,
    workspaceId,
    CHUNK_PAGE,
    offset,
  );
}

/**
 * Lines of the workspace's files holding every word of `words` (or, with `anyWord`, one of them), from the best
 * matching chunks first: the database's full-text index (SQLite FTS5 unicode61 with accents ignored, PostgreSQL
 * to_tsvector('simple')) finds the chunks, and the lines inside them are matched here. `words` are letters and
 * digits only. At most MAX_CHUNKS_READ chunks are read, so a search costs the same whatever the files' shapes.
 */
export async function searchKnowledgeLines({
  workspaceId,
  words,
  anyWord = false,
  limit,
}: {
  workspaceId: string;
  words: readonly string[];
  anyWord?: boolean;
  limit: number;
}): Promise<KnowledgeLineMatch[]> {
  if (words.length === 0) return [];
  const found: KnowledgeLineMatch[] = [];
  const seen = new Set<string>(); // the pieces of one long line are one line
  for (let offset = 0; offset < MAX_CHUNKS_READ && found.length < limit; offset += CHUNK_PAGE) {
    const chunks = await matchingChunks(workspaceId, words, anyWord, offset);
    for (const chunk of chunks) {
      for (const m of matchingLines({ firstLine: Number(chunk.firstLine), text: chunk.text }, words, anyWord)) {
        const key = `${m.line}:${chunk.path}`;
        if (seen.has(key)) continue;
        seen.add(key);
        found.push({ path: chunk.path, ...m });
        if (found.length === limit) return found;
      }
    }
    if (chunks.length < CHUNK_PAGE) break;
  }
  return found;
}
