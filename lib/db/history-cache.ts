// The settled messages of recently active conversations, kept in the process so that a reply does not load and
// decode the whole conversation again. Kept exact by the message queries themselves (every write in
// lib/db/messages.ts reports here) and validated on every read by the conversation's message counter and creation
// time, which every append and delete moves — so a write by another process is noticed and the entry reloaded.
import { approximateBytes, sharedBoundedMap } from "../bounded-map.ts";
import type { ChatMessage, MessageStatus } from "../chat-message.ts";

type Version = { messageSeq: number; createdAt: string };
type Entry = Version & {
  /** Every message at positions below messageSeq, all settled, in order. */
  messages: ChatMessage[];
  /** A reply appended as "streaming": it joins `messages` when it settles. */
  pending?: ChatMessage;
  /** The estimated bytes of `messages` (lib/bounded-map.ts), kept up to date as messages are appended. */
  bytes: number;
};

// Bounded by conversations, by messages and by bytes held, whichever is reached first (least recently used goes
// first); one cache for the whole process (the pages' bundle and the API routes' share it).
const MAX_CONVERSATIONS = 64;
const MAX_MESSAGES = 20_000;
export const HISTORY_CACHE_MAX_BYTES = 32 * 1024 * 1024;
const entries = sharedBoundedMap<string, Entry>("history", {
  maxEntries: MAX_CONVERSATIONS,
  maxBytes: HISTORY_CACHE_MAX_BYTES,
  sizeOf: (_id, entry) => entry.bytes,
});

/** Sets the entry again (re-weighed, most recently used), then keeps the message budget. */
function store(conversationId: string, entry: Entry): void {
  entries.set(conversationId, entry);
  let held = 0;
  for (const e of entries.values()) held += e.messages.length;
  while (held > MAX_MESSAGES && entries.size > 1) {
    const oldest = entries.keys().next().value as string;
    held -= entries.peek(oldest)!.messages.length;
    entries.delete(oldest);
  }
}

export function cachedHistory(conversationId: string, version: Version): ChatMessage[] | undefined {
  const entry = entries.get(conversationId);
  if (!entry || entry.pending || entry.messageSeq !== version.messageSeq || entry.createdAt !== version.createdAt) return undefined;
  return entry.messages.slice();
}

export function rememberHistory(conversationId: string, version: Version, messages: readonly ChatMessage[]): void {
  if (messages.some((m) => m.metadata?.status === "streaming")) return;
  const bytes = messages.reduce((sum, m) => sum + approximateBytes(m), 0);
  store(conversationId, { ...version, messages: messages.slice(), bytes });
}

/** A message was appended at `position` (the counter is now position + 1). */
export function historyAppended(conversationId: string, message: ChatMessage, position: number): void {
  const entry = entries.peek(conversationId);
  if (!entry) return;
  if (entry.pending || position !== entry.messageSeq) return void entries.delete(conversationId);
  if (message.metadata?.status === "streaming") {
    entry.pending = message;
    return;
  }
  entry.messages.push(message);
  entry.messageSeq = position + 1;
  entry.bytes += approximateBytes(message);
  store(conversationId, entry);
}

/** A streaming reply settled with these parts, stored metadata and status; shaped as if read back from the row. */
export function historySettled(
  conversationId: string,
  { id, parts, metadata, status }: { id: string; parts: ChatMessage["parts"]; metadata: object; status: MessageStatus },
): void {
  const entry = entries.peek(conversationId);
  const pending = entry?.pending;
  if (!entry || !pending || pending.id !== id) return void entries.delete(conversationId);
  const createdAt = pending.metadata?.createdAt;
  const settled: ChatMessage = { id, role: pending.role, parts, metadata: { ...metadata, createdAt, ...(status === "complete" ? {} : { status }) } };
  entry.messages.push(settled);
  entry.messageSeq += 1;
  entry.pending = undefined;
  entry.bytes += approximateBytes(settled);
  store(conversationId, entry);
}

export function forgetHistory(conversationId: string): void {
  entries.delete(conversationId);
}
