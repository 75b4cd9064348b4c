// Queries for the Task aggregate. Tasks live outside the model context, per conversation, with sequential ids.
import type { Task, TaskStatus } from "../chat-message.ts";
import { getDb } from "./client.ts";

const STATUSES: readonly TaskStatus[] = ["pending", "in_progress", "completed", "cancelled"];

const stringArray = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

export function toTask(row: {
  id: string;
  subject: string;
  description: string;
  status: string;
  owner: string | null;
  blocks: unknown;
  blockedBy: unknown;
  metadata: unknown;
  createdAt: Date;
  updatedAt: Date;
}): Task {
  const metadata = typeof row.metadata === "object" && row.metadata !== null && !Array.isArray(row.metadata) ? row.metadata : {};
  return {
    id: row.id,
    subject: row.subject,
    description: row.description,
    status: STATUSES.includes(row.status as TaskStatus) ? (row.status as TaskStatus) : "pending",
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
  const rows = await db.task.findMany({ where: { conversationId }, orderBy: [{ position: "asc" }] });
  return rows.map(toTask);
}
