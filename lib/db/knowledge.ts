// Queries for a workspace's knowledge files (text, one row per path).
import { getDb } from "./client.ts";

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
    return { file: toInfo(row), created: !existing };
  });
}

export async function deleteKnowledgeFile({ workspaceId, path }: { workspaceId: string; path: string }): Promise<boolean> {
  const db = await getDb();
  return (await db.knowledgeFile.deleteMany({ where: { workspaceId, path } })).count > 0;
}
