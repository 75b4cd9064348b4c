// The settled messages of recently active conversations, kept in the process so that a reply does not load and
// decode the whole conversation again. Kept exact by the message queries themselves (every write in
// lib/db/messages.ts reports here) and validated on every read by the conversation's message counter and creation
// time, which every append and delete moves — so a write by another process is noticed and the entry reloaded.
import type { ChatMessage, MessageStatus } from "../chat-message.ts";

type Version = { messageSeq: number; createdAt: string };
type Entry = Version & {
  /** Every message at positions below messageSeq, all settled, in order. */
  messages: ChatMessage[];
  /** A reply appended as "streaming": it joins `messages` when it settles. */
  pending?: ChatMessage;
};

// Bounded by conversations and by messages held, whichever is reached first (least recently used goes first).
const MAX_CONVERSATIONS = 64;
const MAX_MESSAGES = 20_000;
const entries = new Map<string, Entry>();

function evict(): void {
  let held = 0;
  for (const entry of entries.values()) held += entry.messages.length;
  while (entries.size > MAX_CONVERSATIONS || (held > MAX_MESSAGES && entries.size > 1)) {
    const oldest = entries.keys().next().value as string;
    held -= entries.get(oldest)!.messages.length;
    entries.delete(oldest);
  }
}

export function cachedHistory(conversationId: string, version: Version): ChatMessage[] | undefined {
  const entry = entries.get(conversationId);
  if (!entry || entry.pending || entry.messageSeq !== version.messageSeq || entry.createdAt !== version.createdAt) return undefined;
  // Most recently used last, so the oldest is evicted first.
  entries.delete(conversationId);
  entries.set(conversationId, entry);
  return entry.messages.slice();
}

export function rememberHistory(conversationId: string, version: Version, messages: readonly ChatMessage[]): void {
  if (messages.some((m) => m.metadata?.status === "streaming")) return;
  entries.delete(conversationId);
  entries.set(conversationId, { ...version, messages: messages.slice() });
  evict();
}

/** A message was appended at `position` (the counter is now position + 1). */
export function historyAppended(conversationId: string, message: ChatMessage, position: number): void {
  const entry = entries.get(conversationId);
  if (!entry) return;
  if (entry.pending || position !== entry.messageSeq) return void entries.delete(conversationId);
  if (message.metadata?.status === "streaming") {
    entry.pending = message;
    return;
  }
  entry.messages.push(message);
  entry.messageSeq = position + 1;
}

/** A streaming reply settled with these parts, stored metadata and status; shaped as if read back from the row. */
export function historySettled(
  conversationId: string,
  { id, parts, metadata, status }: { id: string; parts: ChatMessage["parts"]; metadata: object; status: MessageStatus },
): void {
  const entry = entries.get(conversationId);
  const pending = entry?.pending;
  if (!entry || !pending || pending.id !== id) return void entries.delete(conversationId);
  const createdAt = pending.metadata?.createdAt;
  entry.messages.push({ id, role: pending.role, parts, metadata: { ...metadata, createdAt, ...(status === "complete" ? {} : { status }) } });
  entry.messageSeq += 1;
  entry.pending = undefined;
}

export function forgetHistory(conversationId: string): void {
  entries.delete(conversationId);
}
