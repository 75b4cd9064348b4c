// Queries for a conversation's plan: its versions, numbered 1, 2, … by the conversation's planSeq counter (incrementing
// it locks the row, so racing writes get distinct numbers); the newest is the plan. Only the newest `keep` versions are
// kept.
import type { PlanAuthor } from "../chat-message.ts";
import { getDb } from "./client.ts";
import type { PlanVersionRow } from "./rows.ts";

export type PlanVersion = { version: number; content: string; author: PlanAuthor; createdAt: string };

export function toPlanVersion(row: PlanVersionRow): PlanVersion {
  return {
    version: row.version,
    content: row.content,
    author: row.author === "person" ? "person" : "agent",
    createdAt: row.createdAt.toISOString(),
  };
}

/** Every kept version, oldest first. */
export async function listPlanVersions({ conversationId }: { conversationId: string }): Promise<PlanVersion[]> {
  const db = await getDb();
  const rows = await db.planVersion.findMany({ where: { conversationId }, orderBy: { version: "asc" } });
  return rows.map(toPlanVersion);
}

/** The newest version (the plan), or null. */
export async function currentPlan({ conversationId }: { conversationId: string }): Promise<PlanVersion | null> {
  const db = await getDb();
  const row = await db.planVersion.findFirst({ where: { conversationId }, orderBy: { version: "desc" } });
  return row ? toPlanVersion(row) : null;
}

/** Stores a new version of the plan; null when the conversation does not exist. */
export async function savePlanVersion({
  conversationId,
  content,
  author,
  keep,
}: {
  conversationId: string;
  content: string;
  author: PlanAuthor;
  /** How many versions to keep (the oldest beyond are dropped). */
  keep: number;
}): Promise<PlanVersion | null> {
  const db = await getDb();
  const row = await db.$transaction(async (tx) => {
    const updated = await tx.conversation.updateManyAndReturn({
      where: { id: conversationId },
      data: { planSeq: { increment: 1 } },
      select: { planSeq: true },
    });
    const planSeq = updated[0]?.planSeq;
    if (planSeq === undefined) return null;
    const created = await tx.planVersion.create({ data: { conversationId, version: planSeq, content, author } });
    await tx.planVersion.deleteMany({ where: { conversationId, version: { lte: planSeq - keep } } });
    return created;
  });
  return row ? toPlanVersion(row) : null;
}
