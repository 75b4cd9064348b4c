// Queries for messages. Each message keeps the AI SDK UIMessage parts as JSON, in order, with a position that the
// server assigns from the conversation's messageSeq counter (increasing, not necessarily contiguous). Every write
// reports to the history cache, which spares a reply from loading the whole conversation again.
import { storable } from "../nul.ts";
import type { ChatMessage, MessageMetadata, MessageStatus } from "../chat-message.ts";
import { getDb, sqliteDirect } from "./client.ts";
import { toChatMessage } from "./converters.ts";
import { cachedHistory, forgetHistory, historyAppended, historySettled, rememberHistory } from "./history-cache.ts";
import type { MessageRow } from "./rows.ts";

/**
 * Messages read per query. A long conversation is read a page at a time, by position, with a turn of the event loop
 * between pages: 20,000 rows read and decoded at once held every other request for a few hundred milliseconds.
 */
export const MESSAGE_PAGE = 500;
/** Reads of a long conversation that may be spoiled by writes landing between its pages before one query reads it all. */
const PAGED_TRIES = 2;

type Db = Awaited<ReturnType<typeof getDb>>;
type MessagesVersion = { messageSeq: number; createdAt: Date; moving: boolean } | null;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

async function allRows(db: Db, conversationId: string): Promise<MessageRow[]> {
  const direct = sqliteDirect();
  return direct
    ? direct.messages(conversationId)
    : db.message.findMany({ where: { conversationId }, orderBy: { position: "asc" } });
}

async function rowsAfter(db: Db, conversationId: string, after: number): Promise<MessageRow[]> {
  const direct = sqliteDirect();
  if (direct) return direct.messagesAfter(conversationId, after, MESSAGE_PAGE);
  return db.message.findMany({
    where: { conversationId, position: { gt: after } },
    orderBy: { position: "asc" },
    take: MESSAGE_PAGE,
  });
}

/**
 * The counter every append, delete and finished branch move advances, the creation time (a conversation deleted and
 * made again) and whether a branch move is under way (its batches move rows before the counter does).
 */
async function messagesVersion(db: Db, conversationId: string): Promise<MessagesVersion> {
  const direct = sqliteDirect();
  if (direct) return direct.messagesVersion(conversationId);
  const row = await db.conversation.findUnique({
    where: { id: conversationId },
    select: { messageSeq: true, createdAt: true, branchMove: true },
  });
  return row ? { messageSeq: row.messageSeq, createdAt: row.createdAt, moving: row.branchMove !== null } : null;
}

const sameVersion = (a: MessagesVersion, b: MessagesVersion) =>
  a !== null &&
  b !== null &&
  !a.moving &&
  !b.moving &&
  a.messageSeq === b.messageSeq &&
  a.createdAt.getTime() === b.createdAt.getTime();

/**
 * The conversation's messages in order. Up to MESSAGE_PAGE of them in one query; a longer conversation page by page,
 * with a turn of the event loop between pages, and kept only if nothing was appended, deleted or moved meanwhile (the
 * version is the same before and after), so that it is what one query would have read. A conversation written to on
 * every try, or in the middle of a branch move, is read in one query.
 */
export async function listMessages({ conversationId }: { conversationId: string }): Promise<ChatMessage[]> {
  const db = await getDb();
  for (let tried = 0; tried < PAGED_TRIES; tried++) {
    const before = await messagesVersion(db, conversationId);
    if (!before || before.moving) break;
    const messages: ChatMessage[] = [];
    let page: MessageRow[];
    let after = -1;
    do {
      if (after >= 0) await nextTurn();
      page = await rowsAfter(db, conversationId, after);
      for (const row of page) messages.push(toChatMessage(row));
      after = page.at(-1)?.position ?? after;
    } while (page.length === MESSAGE_PAGE);
    // One page is what one query reads; more must not have been written to in between.
    if (messages.length < MESSAGE_PAGE || sameVersion(before, await messagesVersion(db, conversationId)))
      return messages;
  }
  return (await allRows(db, conversationId)).map(toChatMessage);
}

/**
 * The conversation's messages for a reply: from the cache when the conversation's counter and creation time (read
 * by the caller just before) show that nothing changed since, else from the database (and remembered).
 */
export async function loadHistory({
  conversationId,
  version,
}: {
  conversationId: string;
  version: { messageSeq: number; createdAt: string };
}): Promise<{ messages: ChatMessage[] /** From the cache, which holds settled messages only. */; cached: boolean }> {
  const cached = cachedHistory(conversationId, version);
  if (cached) return { messages: cached, cached: true };
  const messages = await listMessages({ conversationId });
  rememberHistory(conversationId, version, messages);
  return { messages, cached: false };
}

function storedMetadata(metadata: MessageMetadata | undefined): object {
  const { createdAt: _createdAt, status: _status, ...rest } = metadata ?? {};
  return storable(rest);
}

type NewMessage = { message: ChatMessage; status?: MessageStatus };

// A message may hold attachments up to the chat body's limit (~44 MB of JSON with four 8-MiB PDFs): its append may
// outrun the default 10-s transaction limit on a busy PostgreSQL (CI once answered such a message 500; its log was not
// kept). Appends get the long limit; the wait to start stays 15 s.
const APPEND_TRANSACTION = { maxWait: 15_000, timeout: 60_000 };

/**
 * Appends messages at the end of the conversation in one transaction (a turn: the person's message and the reply
 * that starts streaming), optionally renaming the conversation in the same write; the conversation is due for its
 * idle end from then (memoryDueAt).
 *
 * With `expectedSeq` (the conversation's messageSeq as just read), the rows go in as one batch that only commits if
 * the counter still holds that value — half the cost of a read-then-write transaction. If another write came first,
 * the batch rolls back and the read-then-write transaction runs instead.
 */
export async function appendMessages({
  conversationId,
  messages,
  title,
  expectedSeq,
}: {
  conversationId: string;
  messages: NewMessage[];
  title?: string;
  expectedSeq?: number;
}): Promise<ChatMessage[]> {
  const db = await getDb();
  const rowsFrom = (first: number) =>
    messages.map(({ message, status = "complete" }, i) => ({
      conversationId,
      id: message.id,
      role: message.role,
      position: first + i,
      parts: storable(message.parts) as object[],
      metadata: storedMetadata(message.metadata),
      status,
      ...(message.metadata?.createdAt ? { createdAt: new Date(message.metadata.createdAt) } : {}),
    }));
  // memoryDueAt: the conversation has words its next end offers for durable facts (lib/db/memory-marks.ts).
  const now = new Date();
  const touched = { updatedAt: now, memoryDueAt: now, ...(title !== undefined ? { title } : {}) };
  let rows: MessageRow[] | undefined;
  const direct = sqliteDirect();
  if (direct) {
    // One synchronous transaction: nothing can come between reading the counter and writing the rows.
    const newRows = messages.map(({ message, status = "complete" }) => {
      const createdAt = message.metadata?.createdAt ? new Date(message.metadata.createdAt) : undefined;
      return {
        id: message.id,
        role: message.role,
        parts: storable(message.parts),
        metadata: storedMetadata(message.metadata),
        status,
        createdAt,
      };
    });
    rows = direct.appendMessages(conversationId, newRows, title);
  }
  if (!rows && expectedSeq !== undefined) {
    try {
      // The conversation's row first, as the fallback below takes it: two appends that took their locks in opposite
      // orders (rows at the same positions, then the counter) deadlocked on PostgreSQL.
      [, rows] = await db.$transaction(
        [
          db.conversation.update({
            where: { id: conversationId, messageSeq: expectedSeq },
            data: { messageSeq: expectedSeq + messages.length, ...touched },
            select: { messageSeq: true },
          }),
          db.message.createManyAndReturn({ data: rowsFrom(expectedSeq) }),
        ],
        APPEND_TRANSACTION,
      );
    } catch (error) {
      if (!isConflict(error)) throw error;
    }
  }
  rows ??= await db.$transaction(async (tx) => {
    const { messageSeq } = await tx.conversation.update({
      where: { id: conversationId },
      data: { messageSeq: { increment: messages.length }, ...touched },
      select: { messageSeq: true },
    });
    return tx.message.createManyAndReturn({ data: rowsFrom(messageSeq - messages.length) });
  }, APPEND_TRANSACTION);
  return [...rows]
    .sort((a, b) => a.position - b.position)
    .map((row) => {
      const message = toChatMessage(row);
      historyAppended(conversationId, message, row.position);
      return message;
    });
}

/** The counter moved (no row with the expected value) or the positions were taken: someone else appended first. */
function isConflict(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "P2025" || code === "P2002";
}

/** One message of the conversation, or null. */
export async function getMessage({
  conversationId,
  id,
}: {
  conversationId: string;
  id: string;
}): Promise<ChatMessage | null> {
  const db = await getDb();
  const row = await db.message.findFirst({ where: { conversationId, id } });
  return row ? toChatMessage(row) : null;
}

/** Appends one message at the end of the conversation. */
export async function appendMessage({
  conversationId,
  message,
  status = "complete",
}: {
  conversationId: string;
  message: ChatMessage;
  status?: MessageStatus;
}): Promise<ChatMessage> {
  const [stored] = await appendMessages({ conversationId, messages: [{ message, status }] });
  return stored!;
}

export async function updateMessage({
  conversationId,
  id,
  parts,
  metadata,
  status,
  onlyWhileStreaming = false,
}: {
  conversationId: string;
  id: string;
  parts?: ChatMessage["parts"];
  metadata?: MessageMetadata;
  status?: MessageStatus;
  /** A reply's own writes: none once it was settled (by the instance that took its run over, say). */
  onlyWhileStreaming?: boolean;
}): Promise<number> {
  const db = await getDb();
  const change = {
    ...(parts ? { parts: storable(parts) as object[] } : {}),
    ...(metadata ? { metadata: storedMetadata(metadata) } : {}),
    ...(status ? { status } : {}),
  };
  const direct = sqliteDirect();
  const count = direct
    ? direct.updateMessage(conversationId, id, change, onlyWhileStreaming)
    : (
        await db.message.updateMany({
          where: { conversationId, id, ...(onlyWhileStreaming ? { status: "streaming" } : {}) },
          data: change,
        })
      ).count;
  if (!status || status === "streaming") return count;
  // A reply settled: it joins the cached history when the whole of it is known here, else the entry is dropped.
  if (count === 1 && parts && metadata) {
    historySettled(conversationId, { id, parts, metadata: storedMetadata(metadata), status });
  } else {
    forgetHistory(conversationId);
  }
  return count;
}

/** Deletes the messages after the given position (a retry no longer does: it keeps the reply as a branch). */
export async function deleteMessagesAfter({
  conversationId,
  position,
}: {
  conversationId: string;
  position: number;
}): Promise<number> {
  const db = await getDb();
  // The counter moves too, so that every process's history cache sees the change.
  const [result] = await db.$transaction([
    db.message.deleteMany({ where: { conversationId, position: { gt: position } } }),
    db.conversation.updateMany({ where: { id: conversationId }, data: { messageSeq: { increment: 1 } } }),
  ]);
  forgetHistory(conversationId);
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

/** The conversation's last message: its id and role (Continue looks it up before it takes the reply lock). */
export async function findLastMessage({
  conversationId,
}: {
  conversationId: string;
}): Promise<{ id: string; role: string } | null> {
  const db = await getDb();
  return db.message.findFirst({
    where: { conversationId },
    orderBy: { position: "desc" },
    select: { id: true, role: true },
  });
}

/** Every reply stored as "streaming", oldest first: at a one-process server's start, the replies its last run left. */
export async function listStreamingReplies(): Promise<Array<{ conversationId: string; id: string }>> {
  const db = await getDb();
  return db.message.findMany({
    where: { status: "streaming", role: "assistant" },
    orderBy: { createdAt: "asc" },
    select: { conversationId: true, id: true },
  });
}

/** Whether the reply is still stored as being written (a run to take over), not settled. */
export async function isStreamingReply({
  conversationId,
  id,
}: {
  conversationId: string;
  id: string;
}): Promise<boolean> {
  const db = await getDb();
  const row = await db.message.findFirst({
    where: { conversationId, id, role: "assistant", status: "streaming" },
    select: { id: true },
  });
  return row !== null;
}

/**
 * Replies left "streaming" by a server that died mid-reply are marked incomplete; `activeIds` are replies this
 * process is streaming right now.
 */
export async function settleStaleReplies({
  conversationId,
  activeIds,
  reason = "The reply was interrupted.",
}: {
  conversationId: string;
  activeIds: ReadonlySet<string>;
  /** Stored as the reply's error. */
  reason?: string;
}): Promise<number> {
  const db = await getDb();
  const stale = await db.message.findMany({
    where: { conversationId, status: "streaming" },
    select: { id: true, metadata: true },
  });
  let settled = 0;
  for (const row of stale) {
    if (activeIds.has(row.id)) continue;
    const metadata = { ...((row.metadata as object | null) ?? {}), error: reason };
    settled += (
      await db.message.updateMany({
        where: { conversationId, id: row.id, status: "streaming" },
        data: { status: "incomplete", metadata },
      })
    ).count;
    forgetHistory(conversationId);
  }
  return settled;
}
