// Opening a turn: the person's message (or a retry of it) and the reply row that starts "streaming", written in one
// transaction (titling the conversation on its first message). The history the model needs is known before that
// write finishes, so the caller can start the model call while it commits; it comes from the in-process cache when
// nothing changed since the last turn, so a long conversation costs no more.
import { ApiError } from "../api/errors.ts";
import { MAX_CONVERSATION_MESSAGES, MESSAGES_PER_TURN } from "../api/limits.ts";
import type { ChatMessage } from "../chat-message.ts";
import { DEFAULT_TITLE, titleFrom } from "../conversation-title.ts";
import type { ConversationRecord } from "../db/conversations.ts";
import { appendMessages, listMessages, updateMessage, loadHistory, settleStaleReplies } from "../db/messages.ts";
import { branchForRetriedReply } from "./branches.ts";
import { continuable, isRefusal } from "../agent/continue-reply.ts";
import { replyLock } from "./live/reply-lock.ts";
import { historyIndexOf } from "./history-fold.ts";
import { nextTurn } from "./yielding.ts";
import { now as clockNow } from "../clock.ts";

export type PersonMessage = {
  id: string;
  role: "user";
  parts: Array<
    | { type: "text"; text: string }
    | { type: "file"; mediaType: string; url: string; filename?: string; providerMetadata?: Record<string, unknown> }
  >;
};

const personText = (message: PersonMessage, separator: string) =>
  message.parts.flatMap((p) => (p.type === "text" ? [p.text] : [])).join(separator);

/**
 * Marks replies a dead server left "streaming" as incomplete; only when the history shows some (rare: a crash). The
 * cache holds settled messages only, so a history from it needs no look.
 */
async function settleStale(
  conversationId: string,
  { messages: history, cached }: { messages: ChatMessage[]; cached: boolean },
): Promise<ChatMessage[]> {
  if (cached) return history;
  if (!history.some((m) => m.metadata?.status === "streaming")) return history;
  const active = await replyLock().activeIds(conversationId);
  if (!history.some((m) => m.metadata?.status === "streaming" && !active.has(m.id))) return history;
  await settleStaleReplies({ conversationId, activeIds: active });
  return listMessages({ conversationId });
}

const textOf = (message: ChatMessage): string => message.parts.map((p) => (p.type === "text" ? p.text : "")).join("");

/** A retry names a message already in the history; looked up without walking a long conversation. */
const indexOf = historyIndexOf();

/** Indexes a conversation's message ids ahead of its next turn (after an import). */
export function warmMessageIndex(history: readonly ChatMessage[]): void {
  indexOf(history, "");
}

export type OpenedTurn = {
  /** The conversation as the reply's first model call sees it: everything up to the person's message. */
  history: ChatMessage[];
  /** Settles when the turn's rows are stored (rejects when they could not be). */
  committed: Promise<void>;
  /** The turn regenerates the reply to the person's latest message. */
  retry?: boolean;
};

export async function openTurn({
  conversation,
  message,
  reply,
}: {
  /** `created`: the conversation was created by this request, so it has no messages yet. */
  conversation: ConversationRecord & { created?: boolean };
  message: PersonMessage;
  /** The reply row to open, stored as "streaming". */
  reply: ChatMessage;
}): Promise<OpenedTurn> {
  const conversationId = conversation.id;
  const version = { messageSeq: conversation.messageSeq, createdAt: conversation.createdAt };
  const history = conversation.created
    ? []
    : await settleStale(conversationId, await loadHistory({ conversationId, version }));
  const opening = { message: reply, status: "streaming" as const };
  const index = indexOf(history, message.id);
  if (index >= 0) {
    const stored = history[index]!;
    if (stored.role !== "user") throw new ApiError("conflict", `Message id ${message.id} is already used by a reply.`);
    // A retry regenerates the reply to the person's latest message only: an earlier one would delete every later turn.
    if (history.findLastIndex((m) => m.role === "user") !== index) {
      throw new ApiError(
        "conflict",
        `Message ${message.id} is not your latest message; only the reply to the latest one can be retried. Send a new message (with a new id) instead.`,
      );
    }
    if (textOf(stored) !== personText(message, "")) {
      throw new ApiError(
        "conflict",
        `Message ${message.id} is stored with different text; a retry resends it unchanged. Send a new message (with a new id) to say something else.`,
      );
    }
    // A retry: the reply (and anything after it) is generated again; the earlier one is kept as an alternative.
    await branchForRetriedReply(conversationId, message.id);
    const committed = appendMessages({ conversationId, messages: [opening] }).then(() => {});
    committed.catch(() => {}); // the caller awaits it
    return { history: history.slice(0, index + 1), committed, retry: true };
  }
  if (history.length + MESSAGES_PER_TURN > MAX_CONVERSATION_MESSAGES) {
    throw new ApiError(
      "conflict",
      `This conversation holds ${history.length.toLocaleString("en-US")} messages, the most one can (${MAX_CONVERSATION_MESSAGES.toLocaleString("en-US")}); start a new conversation.`,
    );
  }
  // Text parts as text; file parts as lib/chat/attachments.ts prepared them (checked, a PDF's text added).
  const parts = message.parts.map((p) =>
    p.type === "text" ? { type: "text" as const, text: p.text } : p,
  ) as ChatMessage["parts"];
  const title = conversation.title === DEFAULT_TITLE ? titleFrom(personText(message, " ")) : undefined;
  // Its creation time is set here (and stored as is), so the copy in memory matches the stored row.
  const person: ChatMessage = {
    id: message.id,
    role: "user",
    parts,
    metadata: { createdAt: clockNow().toISOString() },
  };
  // Written on the next turn of the event loop: the caller starts the model call meanwhile (on SQLite the write is
  // synchronous, and would otherwise run before the call is sent), and answers only once it is committed.
  const committed = nextTurn()
    .then(() =>
      appendMessages({
        conversationId,
        messages: [{ message: person }, opening],
        title,
        expectedSeq: conversation.messageSeq,
      }),
    )
    .then(() => {});
  committed.catch(() => {}); // the caller awaits it
  return { history: [...history, person], committed };
}

/**
 * Opening a Continue: the conversation's last message must be the reply `replyId`, stopped before its end; it is
 * marked "streaming" again (the same row grows). The history is what precedes it; `continued` is the reply so far.
 */
export async function openContinuation({
  conversation,
  replyId,
}: {
  conversation: ConversationRecord;
  replyId: string;
}): Promise<OpenedTurn & { continued: ChatMessage }> {
  const conversationId = conversation.id;
  const version = { messageSeq: conversation.messageSeq, createdAt: conversation.createdAt };
  const history = await settleStale(conversationId, await loadHistory({ conversationId, version }));
  const last = history.at(-1);
  const checked = continuable(last?.id === replyId ? last : undefined);
  if (isRefusal(checked)) throw new ApiError(checked.status === 409 ? "conflict" : "bad_request", checked.reason);
  const committed = updateMessage({ conversationId, id: replyId, status: "streaming" }).then(() => {});
  committed.catch(() => {}); // the caller awaits it
  return { history: history.slice(0, -1), committed, continued: checked };
}
