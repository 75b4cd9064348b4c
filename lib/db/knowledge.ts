// Queries for a workspace's knowledge files (text, one row per path, indexed for search in bounded chunks).
import { databaseUrl, getDb, isPostgresUrl, lockedTransaction } from "./client.ts";
import { knowledgeChunks, matchingLines } from "./knowledge-chunks.ts";

export type KnowledgeFileInfo = { path: string; bytes: number; tokens: number; updatedAt: string };
export type KnowledgeFile = KnowledgeFileInfo & { content: string };

type Row = { path: string; bytes: number; tokens: number; updatedAt: Date; content?: string };

const toInfo = (row: Row): KnowledgeFileInfo => ({
  path: row.path,
  bytes: row.bytes,
  tokens: row.tokens,
  updatedAt: row.updatedAt.toISOString(),
});

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

export async function getKnowledgeFile({
  workspaceId,
  path,
}: {
  workspaceId: string;
  path: string;
}): Promise<KnowledgeFile | null> {
  const db = await getDb();
  const row = await db.knowledgeFile.findUnique({ where: { workspaceId_path: { workspaceId, path } } });
  return row ? { ...toInfo(row), content: row.content } : null;
}

/**
 * SQLite runs each statement on the server's own thread, and a transaction's statements back to back: indexing a
 * 1 MB file's chunks in one go held every other request for the whole FTS5 write. There the old chunks are removed
 * and the new ones written in batches of this many, each its own short transaction, yielding in between (a search
 * meanwhile sees part of the file). PostgreSQL writes them in the file's transaction, on its own server.
 */
const SQLITE_CHUNK_BATCH = 16;

/** Uploads of one path in this process, one at a time (their batches must not interleave). */
const indexing = new Map<string, Promise<unknown>>();

function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = indexing.get(key) ?? Promise.resolve();
  const run = previous.then(work, work);
  const settled = run.catch(() => undefined);
  indexing.set(key, settled);
  void settled.then(() => {
    if (indexing.get(key) === settled) indexing.delete(key);
  });
  return run;
}

const yieldToOthers = () => new Promise((resolve) => setImmediate(resolve));

/** Deletes a file's chunks (seq ≥ `from`) in batches, each its own transaction, yielding between them. */
async function deleteChunksInBatches(workspaceId: string, path: string, from = 0): Promise<void> {
  const db = await getDb();
  for (;;) {
    const rows = await db.knowledgeChunk.findMany({
      where: { workspaceId, path, seq: { gte: from } },
      select: { seq: true },
      orderBy: { seq: "asc" },
      take: SQLITE_CHUNK_BATCH,
    });
    if (rows.length === 0) return;
    await db.knowledgeChunk.deleteMany({ where: { workspaceId, path, seq: { in: rows.map((r) => r.seq) } } });
    await yieldToOthers();
  }
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
  const postgres = isPostgresUrl(databaseUrl());
  return oneAtATime(`${workspaceId}\u0000${path}`, async () => {
    if (!postgres) await deleteChunksInBatches(workspaceId, path);
    const saved = await lockedTransaction(`knowledge:${workspaceId}`, async (tx) => {
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
      if (postgres) {
        await tx.knowledgeChunk.deleteMany({ where: { workspaceId, path } });
        // One statement with the chunks as array parameters: Prisma's createMany prepares 1 MB of parameters on this
        // thread (~1 s), the driver sends arrays as they are.
        if (chunks.length) {
          await tx.$executeRawUnsafe(
            `INSERT INTO "KnowledgeChunk" ("workspaceId", "path", "seq", "firstLine", "text")
             SELECT $1, $2, t.seq, t.first, t.text FROM unnest($3::int[], $4::int[], $5::text[]) AS t(seq, first, text)`,
            workspaceId,
            path,
            chunks.map((c) => c.seq),
            chunks.map((c) => c.firstLine),
            chunks.map((c) => c.text),
          );
        }
      }
      return { file: toInfo(row), created: !existing };
    });
    if (saved === "limit" || postgres) return saved;
    const db = await getDb();
    for (let i = 0; i < chunks.length; i += SQLITE_CHUNK_BATCH) {
      await yieldToOthers();
      const batch = chunks.slice(i, i + SQLITE_CHUNK_BATCH).map((c) => ({ workspaceId, path, ...c }));
      try {
        await db.knowledgeChunk.createMany({ data: batch });
      } catch (error) {
        // The file was deleted meanwhile (its chunks' foreign key): nothing left to index.
        if (
          !(await db.knowledgeFile.findUnique({
            where: { workspaceId_path: { workspaceId, path } },
            select: { path: true },
          }))
        )
          break;
        throw error;
      }
    }
    return saved;
  });
}

export async function deleteKnowledgeFile({
  workspaceId,
  path,
}: {
  workspaceId: string;
  path: string;
}): Promise<boolean> {
  const db = await getDb();
  if (!isPostgresUrl(databaseUrl()))
    await oneAtATime(`${workspaceId}\u0000${path}`, () => deleteChunksInBatches(workspaceId, path));
  return (await db.knowledgeFile.deleteMany({ where: { workspaceId, path } })).count > 0;
}

export type KnowledgeLineMatch = { path: string; line: number; text: string };

/** Chunks read per query while looking for matching lines, and the most a search reads in all. */
const CHUNK_PAGE = 100;
const MAX_CHUNKS_READ = 500;

type ChunkRow = { path: string; firstLine: number | bigint; text: string };

/** Chunks of the workspace's files holding the words (all, or any), best first, through the full-text index. */
async function matchingChunks(
  workspaceId: string,
  words: readonly string[],
  anyWord: boolean,
  offset: number,
): Promise<ChunkRow[]> {
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
