// Queries for a workspace's knowledge files (text, one row per path).
import { databaseUrl, getDb, isPostgresUrl, LONG_TRANSACTION } from "./client.ts";

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
 * Creates or replaces the file; `maxFiles` is checked for a new path in the same transaction, so racing uploads
 * cannot pass it. "limit" when a new file would be one too many.
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
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const key = { workspaceId_path: { workspaceId, path } };
    const existing = await tx.knowledgeFile.findUnique({ where: key, select: { path: true } });
    if (!existing && (await tx.knowledgeFile.count({ where: { workspaceId } })) >= maxFiles) return "limit" as const;
    const row = await tx.knowledgeFile.upsert({
      where: key,
      create: { workspaceId, path, content, bytes, tokens },
      update: { content, bytes, tokens },
      select: { path: true, bytes: true, tokens: true, updatedAt: true },
    });
    // The lines the full-text index covers (the migrations' triggers / GIN index keep it in step).
    await tx.knowledgeLine.deleteMany({ where: { workspaceId, path } });
    const lines = content.split(/\r\n|\n|\r/);
    if (isPostgresUrl(databaseUrl())) {
      // One statement with the lines as one array parameter: Prisma's createMany takes seconds for 20,000 rows here.
      await tx.$executeRawUnsafe(
        `INSERT INTO "KnowledgeLine" ("workspaceId", "path", "line", "text") SELECT $1, $2, t.n::int, t.text FROM unnest($3::text[]) WITH ORDINALITY AS t(text, n)`,
        workspaceId,
        path,
        lines,
      );
    } else await tx.knowledgeLine.createMany({ data: lines.map((text, i) => ({ workspaceId, path, line: i + 1, text })) });
    return { file: toInfo(row), created: !existing };
  }, LONG_TRANSACTION);
}

export async function deleteKnowledgeFile({ workspaceId, path }: { workspaceId: string; path: string }): Promise<boolean> {
  const db = await getDb();
  return (await db.knowledgeFile.deleteMany({ where: { workspaceId, path } })).count > 0;
}

export type KnowledgeLineMatch = { path: string; line: number; text: string };

/**
 * Lines of the workspace's files holding every word of `words` (or, with `anyWord`, one of them), best matches first,
 * through the database's full-text index: SQLite FTS5 (unicode61, accents ignored), PostgreSQL to_tsvector('simple').
 * `words` are letters and digits only.
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
  const db = await getDb();
  if (isPostgresUrl(databaseUrl())) {
    const query = words.map((w) => `'${w}'`).join(anyWord ? " | " : " & ");
    return db.$queryRawUnsafe<KnowledgeLineMatch[]>(
      `SELECT "path", "line", "text" FROM "KnowledgeLine"
       WHERE "workspaceId" = $1 AND to_tsvector('simple', "text") @@ to_tsquery('simple', $2)
       ORDER BY ts_rank(to_tsvector('simple', "text"), to_tsquery('simple', $2)) DESC, "path", "line" LIMIT $3`,
      workspaceId,
      query,
      limit,
    );
  }
  const match = words.map((w) => `"${w}"`).join(anyWord ? " OR " : " ");
  const rows = await db.$queryRawUnsafe<Array<{ path: string; line: number | bigint; text: string }>>(
    `SELECT l."path", l."line", l."text" FROM "KnowledgeLineFts" f JOIN "KnowledgeLine" l ON l."rowid" = f."rowid"
     WHERE "KnowledgeLineFts" MATCH ? AND l."workspaceId" = ? ORDER BY f."rank", l."path", l."line" LIMIT ?`,
    match,
    workspaceId,
    limit,
  );
  return rows.map((r) => ({ path: r.path, line: Number(r.line), text: r.text }));
}
