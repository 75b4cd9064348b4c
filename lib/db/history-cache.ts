// The settled messages of recently active conversations, kept in the process so that a reply does not load and
// decode the whole conversation again. Kept exact by the message queries themselves (every write in
// lib/db/messages.ts reports here) and validated on every read by the conversation's message counter and creation
// time, which every append and delete moves — so a write by another process is noticed and the entry reloaded.
// Attachments (data URLs of up to 8 MiB each) are weighed apart, against a budget of their own: counted with the rest,
// a conversation holding three 8 MiB images was never kept, so every turn read, parsed and converted 33 MB again and
// hashed it anew (0.4–0.8 s of the event loop per turn).
import { approximateBytes, sharedBoundedMap } from "../bounded-map.ts";
import type { ChatMessage, MessageStatus } from "../chat-message.ts";

type Version = { messageSeq: number; createdAt: string };
type Entry = Version & {
  /** Every message at positions below messageSeq, all settled, in order. */
  messages: ChatMessage[];
  /** A reply appended as "streaming": it joins `messages` when it settles. */
  pending?: ChatMessage;
  /** The estimated bytes of `messages` (lib/bounded-map.ts) but their attachments, kept up to date as messages are appended. */
  bytes: number;
  /** The characters of the attachments' data URLs (one byte each: base64 is ASCII). */
  attachmentBytes: number;
};

// Bounded by conversations, by messages and by bytes held, whichever is reached first (least recently used goes
// first); one cache for the whole process (the pages' bundle and the API routes' share it).
const MAX_CONVERSATIONS = 64;
const MAX_MESSAGES = 20_000;
export const HISTORY_CACHE_MAX_BYTES = 32 * 1024 * 1024;
/** The attachments the cached conversations may hold together (a conversation holding more is read every turn). */
export const HISTORY_CACHE_MAX_ATTACHMENT_BYTES = 128 * 1024 * 1024;
const entries = sharedBoundedMap<string, Entry>("history", {
  maxEntries: MAX_CONVERSATIONS,
  maxBytes: HISTORY_CACHE_MAX_BYTES,
  sizeOf: (_id, entry) => entry.bytes,
});

/** A message's weight: its estimated bytes without its attachments' data URLs, and those URLs' characters. */
function weigh(message: ChatMessage): { bytes: number; attachmentBytes: number } {
  let bytes = approximateBytes(message);
  let attachmentBytes = 0;
  for (const part of message.parts) {
    const url = part.type === "file" ? (part as { url?: unknown }).url : undefined;
    if (typeof url !== "string" || !url.startsWith("data:")) continue;
    bytes -= 2 * url.length;
    attachmentBytes += url.length;
  }
  return { bytes, attachmentBytes };
}

/** Sets the entry again (re-weighed, most recently used), then keeps the message and attachment budgets. */
function store(conversationId: string, entry: Entry): void {
  entries.set(conversationId, entry);
  let held = 0;
  let attached = 0;
  for (const e of entries.values()) {
    held += e.messages.length;
    attached += e.attachmentBytes;
  }
  while (
    (held > MAX_MESSAGES && entries.size > 1) ||
    (attached > HISTORY_CACHE_MAX_ATTACHMENT_BYTES && entries.size > 0)
  ) {
    const oldest = entries.keys().next().value as string;
    const evicted = entries.peek(oldest)!;
    held -= evicted.messages.length;
    attached -= evicted.attachmentBytes;
    entries.delete(oldest);
  }
}

export function cachedHistory(conversationId: string, version: Version): ChatMessage[] | undefined {
  const entry = entries.get(conversationId);
  if (!entry || entry.pending || entry.messageSeq !== version.messageSeq || entry.createdAt !== version.createdAt)
    return undefined;
  return entry.messages.slice();
}

export function rememberHistory(conversationId: string, version: Version, messages: readonly ChatMessage[]): void {
  if (messages.some((m) => m.metadata?.status === "streaming")) return;
  let bytes = 0;
  let attachmentBytes = 0;
  for (const message of messages) {
    const weight = weigh(message);
    bytes += weight.bytes;
    attachmentBytes += weight.attachmentBytes;
  }
  store(conversationId, { ...version, messages: messages.slice(), bytes, attachmentBytes });
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
  add(entry, weigh(message));
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
  const settled: ChatMessage = {
    id,
    role: pending.role,
    parts,
    metadata: { ...metadata, createdAt, ...(status === "complete" ? {} : { status }) },
  };
  entry.messages.push(settled);
  entry.messageSeq += 1;
  entry.pending = undefined;
  add(entry, weigh(settled));
  store(conversationId, entry);
}

function add(entry: Entry, weight: { bytes: number; attachmentBytes: number }): void {
  entry.bytes += weight.bytes;
  entry.attachmentBytes += weight.attachmentBytes;
}

export function forgetHistory(conversationId: string): void {
  entries.delete(conversationId);
}
