// Where a conversation's durable facts stand: `memoryFrom`, the position below which its messages were offered for
// facts already (at a compression or an end), and `memoryDueAt`, the time of its last message since it last ended
// (null: nothing new), which the idle sweep finds through its index. Moving the mark is the claim: a conditional update
// that only one caller (one instance, on PostgreSQL) wins. None of these statements touches `updatedAt`: offering a
// conversation's words moves it nowhere in the list.
import type { ChatMessage } from "../chat-message.ts";
import { getDb } from "./client.ts";
import { toChatMessage } from "./converters.ts";

/** What deciding a conversation's end needs of it. */
export type MemoryMark = {
  id: string;
  workspaceId: string;
  ownerId: string | null;
  parentId: string | null;
  model: string | null;
  settings: unknown;
  messageSeq: number;
  memoryFrom: number;
};

const MARK_FIELDS = {
  id: true,
  workspaceId: true,
  ownerId: true,
  parentId: true,
  model: true,
  settings: true,
  messageSeq: true,
  memoryFrom: true,
} as const;

export async function getMemoryMark({ id }: { id: string }): Promise<MemoryMark | null> {
  const db = await getDb();
  return db.conversation.findUnique({ where: { id }, select: MARK_FIELDS });
}

/** The conversations whose last message is at or before `lastBefore` and not seen by an end since, oldest first. */
export async function findIdleConversations({
  lastBefore,
  limit,
}: {
  lastBefore: Date;
  limit: number;
}): Promise<MemoryMark[]> {
  const db = await getDb();
  return db.conversation.findMany({
    where: { memoryDueAt: { lte: lastBefore } },
    orderBy: { memoryDueAt: "asc" },
    take: limit,
    select: MARK_FIELDS,
  });
}

/**
 * Claims the messages from `from` to `to` (exclusive) for one end's facts and marks the conversation as seen, if the
 * mark is still at `from` and no message came since (`messageSeq` still `to`); true when this caller won.
 */
export async function claimMemoryRange({ id, from, to }: { id: string; from: number; to: number }): Promise<boolean> {
  const db = await getDb();
  const count = await db.$executeRaw`UPDATE "Conversation" SET "memoryFrom" = ${to}, "memoryDueAt" = NULL
    WHERE "id" = ${id} AND "memoryFrom" = ${from} AND "messageSeq" = ${to}`;
  return count === 1;
}

/** Moves the mark from `from` to `to` (a compression's facts were kept), if it is still at `from`; true when it was. */
export async function advanceMemoryMark({ id, from, to }: { id: string; from: number; to: number }): Promise<boolean> {
  const db = await getDb();
  const count = await db.$executeRaw`UPDATE "Conversation" SET "memoryFrom" = ${to}
    WHERE "id" = ${id} AND "memoryFrom" = ${from}`;
  return count === 1;
}

/** Gives a claimed range back (its facts call failed), unless the mark moved on meanwhile. */
export async function releaseMemoryRange({ id, from, to }: { id: string; from: number; to: number }): Promise<void> {
  const db = await getDb();
  await db.$executeRaw`UPDATE "Conversation" SET "memoryFrom" = ${from} WHERE "id" = ${id} AND "memoryFrom" = ${to}`;
}

/** Marks the conversation as seen by an end without offering anything, if no message came since (`messageSeq`). */
export async function clearMemoryDue({ id, messageSeq }: { id: string; messageSeq: number }): Promise<void> {
  const db = await getDb();
  await db.$executeRaw`UPDATE "Conversation" SET "memoryDueAt" = NULL WHERE "id" = ${id} AND "messageSeq" = ${messageSeq}`;
}

/** Puts the conversation's end off until it has been idle again from `now` (its reply is still running). */
export async function postponeMemoryDue({ id, now }: { id: string; now: Date }): Promise<void> {
  const db = await getDb();
  // Through the client: it writes the time as each database stores it. `updatedAt` is kept as it is.
  const row = await db.conversation.findUnique({ where: { id }, select: { updatedAt: true } });
  if (row)
    await db.conversation.updateMany({
      where: { id, updatedAt: row.updatedAt },
      data: { memoryDueAt: now, updatedAt: row.updatedAt },
    });
}

/** The settled messages from position `from` to `to` (exclusive), the newest `limit` of them, oldest first. */
export async function messagesInRange({
  conversationId,
  from,
  to,
  limit,
}: {
  conversationId: string;
  from: number;
  to: number;
  limit: number;
}): Promise<ChatMessage[]> {
  const db = await getDb();
  const rows = await db.message.findMany({
    where: { conversationId, position: { gte: from, lt: to }, status: { not: "streaming" } },
    orderBy: { position: "desc" },
    take: limit,
  });
  return rows.reverse().map(toChatMessage);
}

/** The id of the conversation's first message at or after `position`; null when there is none. */
export async function firstMessageFrom({
  conversationId,
  position,
}: {
  conversationId: string;
  position: number;
}): Promise<string | null> {
  const db = await getDb();
  const row = await db.message.findFirst({
    where: { conversationId, position: { gte: position } },
    orderBy: { position: "asc" },
    select: { id: true },
  });
  return row?.id ?? null;
}
