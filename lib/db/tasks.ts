// Queries for the Task aggregate. Tasks live outside the model context, per conversation, with sequential ids
// ("1", "2", …) handed out by the conversation's taskSeq counter (incrementing it locks the row, so racing creates
// still get distinct, sequential ids). blocks/blockedBy are kept consistent on both sides.
import { MAX_CONVERSATION_TASKS } from "../api/limits.ts";
import type { Task, TaskStatus } from "../chat-message.ts";
import { getDb, sqliteDirect } from "./client.ts";
import type { TaskRow } from "./rows.ts";

export const TASK_STATUSES: readonly TaskStatus[] = ["pending", "in_progress", "completed", "cancelled"];

const stringArray = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

export function toTask(row: TaskRow): Task {
  const metadata =
    typeof row.metadata === "object" && row.metadata !== null && !Array.isArray(row.metadata) ? row.metadata : {};
  return {
    id: row.id,
    subject: row.subject,
    description: row.description,
    status: TASK_STATUSES.includes(row.status as TaskStatus) ? (row.status as TaskStatus) : "pending",
    ...(row.owner ? { owner: row.owner } : {}),
    blocks: stringArray(row.blocks),
    blockedBy: stringArray(row.blockedBy),
    metadata: metadata as Record<string, unknown>,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export async function listTasks({ conversationId }: { conversationId: string }): Promise<Task[]> {
  const db = await getDb();
  const direct = sqliteDirect();
  const rows = direct
    ? direct.tasks(conversationId)
    : await db.task.findMany({ where: { conversationId }, orderBy: [{ position: "asc" }] });
  return rows.map(toTask);
}

export async function getTask({ conversationId, id }: { conversationId: string; id: string }): Promise<Task | null> {
  const db = await getDb();
  const row = await db.task.findUnique({ where: { conversationId_id: { conversationId, id } } });
  return row ? toTask(row) : null;
}

/** A conversation holds at most MAX_CONVERSATION_TASKS tasks (what an import accepts), whoever creates them. */
export class TaskLimitError extends Error {
  constructor() {
    super(
      `This conversation already has ${MAX_CONVERSATION_TASKS.toLocaleString("en-US")} tasks, the most it can hold; delete some before creating more.`,
    );
    this.name = "TaskLimitError";
  }
}

export async function createTask({
  conversationId,
  subject,
  description = "",
  metadata = {},
  status = "pending",
}: {
  conversationId: string;
  subject: string;
  description?: string;
  metadata?: Record<string, unknown>;
  status?: TaskStatus;
}): Promise<Task> {
  const db = await getDb();
  const row = await db.$transaction(async (tx) => {
    const { taskSeq } = await tx.conversation.update({
      where: { id: conversationId },
      data: { taskSeq: { increment: 1 } },
      select: { taskSeq: true },
    });
    // Counted after the increment has locked the conversation's row, so racing creates cannot both pass.
    if ((await tx.task.count({ where: { conversationId } })) >= MAX_CONVERSATION_TASKS) throw new TaskLimitError();
    return tx.task.create({
      data: {
        conversationId,
        id: String(taskSeq),
        subject,
        description,
        status,
        blocks: [],
        blockedBy: [],
        metadata: metadata as object,
        position: taskSeq,
      },
    });
  });
  return toTask(row);
}

export type TaskChanges = {
  subject?: string;
  description?: string;
  status?: TaskStatus;
  owner?: string | null;
  /** Merged into the metadata; a null value deletes its key. */
  metadata?: Record<string, unknown>;
  addBlocks?: string[];
  addBlockedBy?: string[];
  position?: number;
};

/**
 * Applies changes to a task in one transaction; returns the updated task, or null when it does not exist.
 * Blocking links are mirrored on the other task. Callers validate that linked ids exist.
 */
export async function updateTask({
  conversationId,
  id,
  changes,
}: {
  conversationId: string;
  id: string;
  changes: TaskChanges;
}): Promise<Task | null> {
  const db = await getDb();
  const row = await db.$transaction(async (tx) => {
    const current = await tx.task.findUnique({ where: { conversationId_id: { conversationId, id } } });
    if (!current) return null;
    const blocks = new Set(stringArray(current.blocks));
    const blockedBy = new Set(stringArray(current.blockedBy));
    const link = async (otherId: string, field: "blocks" | "blockedBy") => {
      const other = await tx.task.findUnique({ where: { conversationId_id: { conversationId, id: otherId } } });
      if (!other) return;
      const list = new Set(stringArray(other[field]));
      list.add(id);
      await tx.task.update({
        where: { conversationId_id: { conversationId, id: otherId } },
        data: { [field]: [...list] },
      });
    };
    for (const other of changes.addBlocks ?? []) {
      if (other === id || blocks.has(other)) continue;
      blocks.add(other);
      await link(other, "blockedBy");
    }
    for (const other of changes.addBlockedBy ?? []) {
      if (other === id || blockedBy.has(other)) continue;
      blockedBy.add(other);
      await link(other, "blocks");
    }
    let metadata = current.metadata as Record<string, unknown>;
    if (changes.metadata) {
      metadata = { ...(typeof metadata === "object" && metadata ? metadata : {}) };
      for (const [key, value] of Object.entries(changes.metadata)) {
        if (value === null) delete metadata[key];
        else metadata[key] = value;
      }
    }
    return tx.task.update({
      where: { conversationId_id: { conversationId, id } },
      data: {
        ...(changes.subject !== undefined ? { subject: changes.subject } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.status !== undefined ? { status: changes.status } : {}),
        ...(changes.owner !== undefined ? { owner: changes.owner } : {}),
        ...(changes.position !== undefined ? { position: changes.position } : {}),
        blocks: [...blocks],
        blockedBy: [...blockedBy],
        metadata: metadata as object,
      },
    });
  });
  return row ? toTask(row) : null;
}

/** Deletes a task and removes its id from every other task's blocks and blockedBy. */
export async function deleteTask({ conversationId, id }: { conversationId: string; id: string }): Promise<boolean> {
  const db = await getDb();
  return db.$transaction(async (tx) => {
    const deleted = await tx.task.deleteMany({ where: { conversationId, id } });
    if (!deleted.count) return false;
    const others = await tx.task.findMany({ where: { conversationId } });
    for (const other of others) {
      const blocks = stringArray(other.blocks);
      const blockedBy = stringArray(other.blockedBy);
      if (!blocks.includes(id) && !blockedBy.includes(id)) continue;
      await tx.task.update({
        where: { conversationId_id: { conversationId, id: other.id } },
        data: { blocks: blocks.filter((b) => b !== id), blockedBy: blockedBy.filter((b) => b !== id) },
      });
    }
    return true;
  });
}

/** Puts the tasks in the given order (ids not listed keep their relative order after the listed ones). */
export async function reorderTasks({
  conversationId,
  ids,
}: {
  conversationId: string;
  ids: string[];
}): Promise<Task[]> {
  const db = await getDb();
  const current = await listTasks({ conversationId });
  const order = [
    ...ids.filter((id) => current.some((t) => t.id === id)),
    ...current.map((t) => t.id).filter((id) => !ids.includes(id)),
  ];
  await db.$transaction(
    order.map((id, position) =>
      db.task.update({ where: { conversationId_id: { conversationId, id } }, data: { position } }),
    ),
  );
  return listTasks({ conversationId });
}
