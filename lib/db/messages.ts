// Queries for messages. Each message keeps the AI SDK UIMessage parts as JSON, in order, with a position that the
// server assigns (0, 1, 2, … per conversation).
import type { ChatMessage, MessageMetadata, MessageStatus } from "../chat-message.ts";
import { getDb } from "./client.ts";
import { toChatMessage } from "./converters.ts";

export async function listMessages({ conversationId }: { conversationId: string }): Promise<ChatMessage[]> {
  const db = await getDb();
  const rows = await db.message.findMany({ where: { conversationId }, orderBy: { position: "asc" } });
  return rows.map(toChatMessage);
}

function storedMetadata(metadata: MessageMetadata | undefined): object {
  const { createdAt: _createdAt, status: _status, ...rest } = metadata ?? {};
  return rest;
}

/** Appends a message at the end of the conversation. */
export async function appendMessage({
  conversationId,
  message,
  status = "complete",
}: {
  conversationId: string;
  message: ChatMessage;
  status?: MessageStatus;
}): Promise<ChatMessage> {
  const db = await getDb();
  const row = await db.$transaction(async (tx) => {
    const { messageSeq } = await tx.conversation.update({
      where: { id: conversationId },
      data: { messageSeq: { increment: 1 }, updatedAt: new Date() },
      select: { messageSeq: true },
    });
    return tx.message.create({
      data: {
        conversationId,
        id: message.id,
        role: message.role,
        position: messageSeq - 1,
        parts: message.parts as object[],
        metadata: storedMetadata(message.metadata),
        status,
      },
    });
  });
  return toChatMessage(row);
}

export async function updateMessage({
  conversationId,
  id,
  parts,
  metadata,
  status,
}: {
  conversationId: string;
  id: string;
  parts?: ChatMessage["parts"];
  metadata?: MessageMetadata;
  status?: MessageStatus;
}): Promise<void> {
  const db = await getDb();
  await db.message.updateMany({
    where: { conversationId, id },
    data: {
      ...(parts ? { parts: parts as object[] } : {}),
      ...(metadata ? { metadata: storedMetadata(metadata) } : {}),
      ...(status ? { status } : {}),
    },
  });
}

/** Deletes the messages after the given position (a retry replaces the reply it retries). */
export async function deleteMessagesAfter({
  conversationId,
  position,
}: {
  conversationId: string;
  position: number;
}): Promise<number> {
  const db = await getDb();
  const result = await db.message.deleteMany({ where: { conversationId, position: { gt: position } } });
  return result.count;
}

export async function findMessagePosition({
  conversationId,
  id,
}: {
  conversationId: string;
  id: string;
}): Promise<{ position: number; role: string } | null> {
  const db = await getDb();
  return db.message.findUnique({
    where: { conversationId_id: { conversationId, id } },
    select: { position: true, role: true },
  });
}

/**
 * Replies left "streaming" by a server that died mid-reply are marked incomplete; `activeIds` are replies this
 * process is streaming right now.
 */
export async function settleStaleReplies({
  conversationId,
  activeIds,
}: {
  conversationId: string;
  activeIds: ReadonlySet<string>;
}): Promise<void> {
  const db = await getDb();
  const stale = await db.message.findMany({
    where: { conversationId, status: "streaming" },
    select: { id: true, metadata: true },
  });
  for (const row of stale) {
    if (activeIds.has(row.id)) continue;
    const metadata = { ...((row.metadata as object | null) ?? {}), error: "The reply was interrupted." };
    await db.message.updateMany({ where: { conversationId, id: row.id }, data: { status: "incomplete", metadata } });
  }
}
