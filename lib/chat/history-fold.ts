// Values derived from every message of a conversation, kept per conversation and extended with what is new. The
// history cache (lib/db/history-cache.ts) hands a reply the same message objects turn after turn, so the part of a
// history already seen is recognised by identity (a pointer comparison per message, microseconds for thousands)
// and only the new messages are derived. What is kept is laid out so that a reply does not walk it either: derived
// lists are kept concatenated, counts kept as running totals.
import type { ChatMessage } from "../chat-message.ts";

/** `items` in message order; `ends[i]`: how many items the first i + 1 messages gave. */
type Fold<T> = { messages: ChatMessage[]; items: T[]; ends: number[] };

const settled = (message: ChatMessage) => message.metadata?.status !== "streaming";
/** The longest stretch a warm-up holds the event loop for (about: it stops after the message that passes it). */
const SLICE_MS = 8;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Per conversation (keyed by its first message, dropped with it): the fold cut back to what `history` still shares
 * with it (`kept` items stay) and extended by `keep` with its settled new messages; `seen` is where the rest (a
 * streaming reply and what follows it, derived afresh each time) starts.
 */
function keptFolds<T>(keep: (message: ChatMessage, items: T[]) => void) {
  const byFirst = new WeakMap<ChatMessage, Fold<T>>();
  const known = (history: readonly ChatMessage[]): number => {
    const messages = history.length ? byFirst.get(history[0]!)?.messages : undefined;
    if (!messages) return 0;
    const shared = Math.min(messages.length, history.length);
    let same = 0;
    while (same < shared && messages[same] === history[same]) same++;
    return same;
  };
  /** `deadline` (a performance.now() time): stop extending once it has passed, leaving the rest to a later call. */
  const sync = (
    history: readonly ChatMessage[],
    deadline = Number.POSITIVE_INFINITY,
  ): { fold: Fold<T>; seen: number; kept: number } => {
    let fold = byFirst.get(history[0]!);
    if (!fold) {
      fold = { messages: [], items: [], ends: [] };
      byFirst.set(history[0]!, fold);
    }
    let same = 0;
    const shared = Math.min(fold.messages.length, history.length);
    while (same < shared && fold.messages[same] === history[same]) same++;
    // Another history from the same first message (a retry, a reload of the rows) keeps only what they share.
    fold.messages.length = same;
    fold.ends.length = same;
    fold.items.length = same > 0 ? fold.ends[same - 1]! : 0;
    const kept = fold.items.length;
    while (same < history.length && settled(history[same]!)) {
      fold.messages.push(history[same]!);
      keep(history[same]!, fold.items);
      fold.ends.push(fold.items.length);
      same++;
      // Looked at after every message: one of 94,000 characters takes ~3 ms to count, 64 of them held others 200 ms.
      if (performance.now() > deadline) break;
    }
    return { fold, seen: same, kept };
  };
  /**
   * Extends the fold over every settled message of `history` in slices of about SLICE_MS, with a turn of the event
   * loop between them: a long conversation read afresh (new message objects) is folded without holding other requests.
   */
  const warm = async (history: readonly ChatMessage[]): Promise<void> => {
    for (;;) {
      if (history.length === 0) return;
      const { seen } = sync(history, performance.now() + SLICE_MS);
      if (seen >= history.length || !settled(history[seen]!)) return;
      await nextTurn();
    }
  };
  return Object.assign(sync, { known, warm });
}

/** `derive(message)` for every message of a history, concatenated. A new array each time: the caller may keep it. */
export function historyFlat<T>(
  derive: (message: ChatMessage) => readonly T[],
): (history: readonly ChatMessage[]) => T[] {
  const sync = keptFolds<T>((message, items) => {
    for (const item of derive(message)) items.push(item);
  });
  return (history) => {
    if (history.length === 0) return [];
    const { fold, seen } = sync(history);
    const items = fold.items.slice();
    for (let i = seen; i < history.length; i++) for (const item of derive(history[i]!)) items.push(item);
    return items;
  };
}

/**
 * Running totals of `count(message)` over a history: `totalOf(k)` is the sum over its first k messages (`zero` for
 * none), so the total of any range costs two lookups however long the conversation is. Read the totals right away:
 * the next call may change what they are read from.
 */
export function historyTotals<T>(count: (message: ChatMessage) => T, add: (a: T, b: T) => T, zero: T) {
  const sync = keptFolds<T>((message, items) => {
    items.push(add(items.at(-1) ?? zero, count(message)));
  });
  const totals = (history: readonly ChatMessage[]): ((k: number) => T) => {
    if (history.length === 0) return () => zero;
    const { fold, seen } = sync(history);
    const kept = fold.items;
    const rest: T[] = [];
    for (let i = seen; i < history.length; i++)
      rest.push(add(rest.at(-1) ?? kept[seen - 1] ?? zero, count(history[i]!)));
    return (k) => {
      const n = Math.min(k, history.length);
      if (n <= 0) return zero;
      return n <= seen ? kept[n - 1]! : rest[n - seen - 1]!;
    };
  };
  return Object.assign(totals, {
    /** How many leading messages of `history` are already in the running totals (read without extending them). */
    known: (history: readonly ChatMessage[]): number => sync.known(history),
    /** Extends the running totals over `history` in slices that let other requests run (see keptFolds). */
    warm: (history: readonly ChatMessage[]): Promise<void> => sync.warm(history),
  });
}

/** Where a message id is in a history (or -1), found in a map kept per conversation rather than by walking it. */
export function historyIndexOf(): (history: readonly ChatMessage[], id: string) => number {
  const sync = keptFolds<string>((message, ids) => {
    ids.push(message.id);
  });
  // Positions of the ids seen so far; an entry is trusted only while the kept ids still hold it at that position.
  const indexes = new WeakMap<Fold<string>, { positions: Map<string, number>; indexed: number }>();
  return (history, id) => {
    if (history.length === 0) return -1;
    const { fold, seen, kept } = sync(history);
    let index = indexes.get(fold);
    if (!index) {
      index = { positions: new Map(), indexed: 0 };
      indexes.set(fold, index);
    }
    index.indexed = Math.min(index.indexed, kept);
    for (; index.indexed < fold.items.length; index.indexed++)
      index.positions.set(fold.items[index.indexed]!, index.indexed);
    const at = index.positions.get(id);
    if (at !== undefined && at < seen && fold.items[at] === id) return at;
    for (let i = seen; i < history.length; i++) if (history[i]!.id === id) return i;
    return -1;
  };
}
