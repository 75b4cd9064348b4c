// Queries for the messages a person queued while a reply runs. Every change of a queued message is one conditional
// update on status = "queued" (cancel, edit, take): of two tabs or instances racing, one wins and the other is told.
import { getDb, lockedTransaction } from "./client.ts";

export type QueueWhen = "next-step" | "after-reply";
export type QueueStatus = "queued" | "taken" | "delivered" | "cancelled";

export type QueuedMessageRow = {
  conversationId: string;
  id: string;
  when: QueueWhen;
  position: number;
  /** The person's UIMessage as it was queued (attachments checked). */
  message: unknown;
  status: QueueStatus;
  replyId: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
};

const toRow = (row: { when: string; status: string } & Omit<QueuedMessageRow, "when" | "status">) =>
  row as QueuedMessageRow;

export type QueueAnswer =
  | { queued: QueuedMessageRow }
  | { full: number }
  | { duplicate: true }
  | { missingConversation: true };

/**
 * Appends a message to the conversation's queue, at the next position, unless the queue already holds `max` queued
 * messages or a message with this id. The count and the position are taken under the conversation's queue lock.
 */
export async function queueMessage({
  conversationId,
  id,
  when,
  message,
  max,
}: {
  conversationId: string;
  id: string;
  when: QueueWhen;
  message: unknown;
  max: number;
}): Promise<QueueAnswer> {
  return lockedTransaction(`queue:${conversationId}`, async (tx) => {
    const [waiting, last, existing, conversation] = await Promise.all([
      tx.queuedMessage.count({ where: { conversationId, status: "queued" } }),
      tx.queuedMessage.findFirst({
        where: { conversationId },
        orderBy: { position: "desc" },
        select: { position: true },
      }),
      tx.queuedMessage.findUnique({ where: { conversationId_id: { conversationId, id } }, select: { id: true } }),
      tx.conversation.findUnique({ where: { id: conversationId }, select: { id: true } }),
    ]);
    if (!conversation) return { missingConversation: true };
    if (existing) return { duplicate: true };
    if (waiting >= max) return { full: waiting };
    const row = await tx.queuedMessage.create({
      data: { conversationId, id, when, position: (last?.position ?? -1) + 1, message: message as object },
    });
    return { queued: toRow(row) };
  });
}

/** The conversation's messages still queued, in order. */
export async function listQueued({ conversationId }: { conversationId: string }): Promise<QueuedMessageRow[]> {
  const db = await getDb();
  const rows = await db.queuedMessage.findMany({
    where: { conversationId, status: "queued" },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  return rows.map(toRow);
}

export async function getQueued({
  conversationId,
  id,
}: {
  conversationId: string;
  id: string;
}): Promise<QueuedMessageRow | null> {
  const db = await getDb();
  const row = await db.queuedMessage.findUnique({ where: { conversationId_id: { conversationId, id } } });
  return row ? toRow(row) : null;
}

/** Replaces a queued message; false when it is not queued any more (taken, delivered, cancelled) or unknown. */
export async function editQueued({
  conversationId,
  id,
  message,
}: {
  conversationId: string;
  id: string;
  message: unknown;
}): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.queuedMessage.updateMany({
    where: { conversationId, id, status: "queued" },
    data: { message: message as object },
  });
  return count === 1;
}

/** Cancels a queued message; false when it is not queued any more or unknown. */
export async function cancelQueued({ conversationId, id }: { conversationId: string; id: string }): Promise<boolean> {
  const db = await getDb();
  const { count } = await db.queuedMessage.updateMany({
    where: { conversationId, id, status: "queued" },
    data: { status: "cancelled" },
  });
  return count === 1;
}

/** Takes the given queued messages for reply `replyId`: those still queued, in order (others were cancelled or taken). */
export async function takeQueued({
  conversationId,
  ids,
  replyId,
}: {
  conversationId: string;
  ids: string[];
  replyId: string;
}): Promise<QueuedMessageRow[]> {
  if (ids.length === 0) return [];
  const db = await getDb();
  const rows = await db.queuedMessage.updateManyAndReturn({
    where: { conversationId, id: { in: ids }, status: "queued" },
    data: { status: "taken", replyId },
  });
  return rows.map(toRow).sort((a, b) => a.position - b.position || a.id.localeCompare(b.id));
}

/** The conversation's first queued message (either kind), or null. */
export async function firstQueued({ conversationId }: { conversationId: string }): Promise<QueuedMessageRow | null> {
  const db = await getDb();
  const row = await db.queuedMessage.findFirst({
    where: { conversationId, status: "queued" },
    orderBy: [{ position: "asc" }, { id: "asc" }],
  });
  return row ? toRow(row) : null;
}

/** The messages reply `replyId` took are delivered (a saved reply or turn holds them); how many. */
export async function markDelivered({
  conversationId,
  replyId,
}: {
  conversationId: string;
  replyId: string;
}): Promise<number> {
  const db = await getDb();
  const { count } = await db.queuedMessage.updateMany({
    where: { conversationId, replyId, status: "taken" },
    data: { status: "delivered", deliveredAt: new Date() },
  });
  return count;
}

/** A taken message whose turn did not start goes back to the queue ("queued") or is dropped ("cancelled"). */
export async function untake({
  conversationId,
  id,
  status,
}: {
  conversationId: string;
  id: string;
  status: "queued" | "cancelled";
}): Promise<void> {
  const db = await getDb();
  await db.queuedMessage.updateMany({
    where: { conversationId, id, status: "taken" },
    data: { status, replyId: null },
  });
}

/** Removes a queued message whose turn was refused as it was queued (the request that queued it changes nothing). */
export async function deleteQueued({ conversationId, id }: { conversationId: string; id: string }): Promise<void> {
  const db = await getDb();
  await db.queuedMessage.deleteMany({ where: { conversationId, id } });
}

/**
 * Puts back at their places in the queue the messages reply `replyId` took but did not save (ids not in `saved`): a
 * step cut by a stopped process took them. How many.
 */
export async function requeueTaken({
  conversationId,
  replyId,
  saved,
}: {
  conversationId: string;
  replyId: string;
  saved: string[];
}): Promise<number> {
  const db = await getDb();
  const { count } = await db.queuedMessage.updateMany({
    where: { conversationId, replyId, status: "taken", id: { notIn: saved } },
    data: { status: "queued", replyId: null },
  });
  return count;
}

/** The conversations that have a message waiting in their queue (at most `limit`, oldest first). */
export async function conversationsWithQueued(limit: number): Promise<string[]> {
  const db = await getDb();
  const rows = await db.queuedMessage.findMany({
    where: { status: "queued" },
    distinct: ["conversationId"],
    select: { conversationId: true },
    orderBy: { createdAt: "asc" },
    take: limit,
  });
  return rows.map((row) => row.conversationId);
}
