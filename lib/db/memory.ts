// Queries for a workspace's memory: one row per entry, oldest first.
import { getDb, lockedTransaction } from "./client.ts";

/** system: a durable fact kept at a compression or the end of a conversation (lib/chat/compression-memory.ts). */
export type MemoryAuthor = "agent" | "person" | "system";
/** Whose words the system kept a fact from. */
export type MemorySource = "person" | "agent";
/**
 * `conversationId`: the conversation whose agent wrote it, or whose words the system kept it from (absent for the
 * person's entries). `source`: a system fact's, when the extraction named one.
 */
export type MemoryEntry = {
  id: string;
  text: string;
  author: MemoryAuthor;
  conversationId?: string;
  source?: MemorySource;
  createdAt: string;
  updatedAt: string;
};

type MemoryRow = {
  id: string;
  text: string;
  author: string;
  conversationId: string | null;
  source: string | null;
  createdAt: Date;
  updatedAt: Date;
};

const toEntry = (row: MemoryRow): MemoryEntry => ({
  id: row.id,
  text: row.text,
  author: row.author === "agent" || row.author === "system" ? row.author : "person",
  ...(row.conversationId ? { conversationId: row.conversationId } : {}),
  ...(row.source === "person" || row.source === "agent" ? { source: row.source } : {}),
  createdAt: row.createdAt.toISOString(),
  updatedAt: row.updatedAt.toISOString(),
});

export async function listMemory({ workspaceId }: { workspaceId: string }): Promise<MemoryEntry[]> {
  const db = await getDb();
  const rows = await db.memoryEntry.findMany({
    where: { workspaceId },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  return rows.map(toEntry);
}

export async function countMemory({ workspaceId }: { workspaceId: string }): Promise<number> {
  const db = await getDb();
  return db.memoryEntry.count({ where: { workspaceId } });
}

/**
 * Appends the entry unless `refusal` — given the workspace's entries as read under its memory lock, so no concurrent
 * append can slip in between — gives a reason not to; then that reason is returned instead.
 */
export async function addMemoryEntryUnless<R>(
  entry: {
    workspaceId: string;
    id: string;
    text: string;
    author: MemoryAuthor;
    conversationId?: string;
    source?: MemorySource;
    authorId?: string | null;
  },
  refusal: (entries: MemoryEntry[]) => R | undefined,
): Promise<{ entry: MemoryEntry } | { refused: R }> {
  return lockedTransaction(`memory:${entry.workspaceId}`, async (tx) => {
    const rows = await tx.memoryEntry.findMany({
      where: { workspaceId: entry.workspaceId },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    const refused = refusal(rows.map(toEntry));
    if (refused !== undefined) return { refused };
    return { entry: toEntry(await tx.memoryEntry.create({ data: entry })) };
  });
}

/** Deletes `removeIds` and appends `add` in one transaction (the whole memory replaced at once). */
export async function replaceMemoryEntries({
  workspaceId,
  removeIds,
  add,
}: {
  workspaceId: string;
  removeIds: readonly string[];
  add: ReadonlyArray<{ id: string; text: string; author: MemoryAuthor; createdAt: Date }>;
}): Promise<void> {
  await lockedTransaction(`memory:${workspaceId}`, async (tx) => {
    await tx.memoryEntry.deleteMany({ where: { workspaceId, id: { in: [...removeIds] } } });
    await tx.memoryEntry.createMany({ data: add.map((e) => ({ ...e, workspaceId })) });
  });
}

/** null when the entry does not exist in that workspace. */
export async function updateMemoryEntry({
  workspaceId,
  id,
  text,
}: {
  workspaceId: string;
  id: string;
  text: string;
}): Promise<MemoryEntry | null> {
  const db = await getDb();
  const rows = await db.memoryEntry.updateManyAndReturn({ where: { workspaceId, id }, data: { text } });
  return rows[0] ? toEntry(rows[0]) : null;
}

export async function deleteMemoryEntry({ workspaceId, id }: { workspaceId: string; id: string }): Promise<boolean> {
  const db = await getDb();
  return (await db.memoryEntry.deleteMany({ where: { workspaceId, id } })).count > 0;
}
