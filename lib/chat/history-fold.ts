// A value derived from every message of a conversation, kept per conversation and extended with what is new. The
// history cache (lib/db/history-cache.ts) hands a reply the same message objects turn after turn, so the part of a
// history already seen is recognised by identity (a pointer comparison per message, microseconds for thousands)
// and only the new messages are derived: a reply in a long conversation does not look every message up again.
import type { ChatMessage } from "../chat-message.ts";

type Fold<T> = { messages: ChatMessage[]; values: T[] };

const settled = (message: ChatMessage) => message.metadata?.status !== "streaming";

/**
 * `derive(message)` for every message of a history, in order. Values of settled messages are kept (keyed by the
 * history's first message, so per conversation, and dropped with it); a streaming reply is derived afresh each time.
 * The returned array may be the kept one: read it, do not change it.
 */
export function historyFold<T>(derive: (message: ChatMessage) => T): (history: readonly ChatMessage[]) => readonly T[] {
  const folds = new WeakMap<ChatMessage, Fold<T>>();
  return (history) => {
    const first = history[0];
    if (!first) return [];
    let fold = folds.get(first);
    if (!fold) {
      fold = { messages: [], values: [] };
      folds.set(first, fold);
    }
    let same = 0;
    const shared = Math.min(fold.messages.length, history.length);
    while (same < shared && fold.messages[same] === history[same]) same++;
    // Another history from the same first message (a retry, a reload of the rows) keeps only what they share.
    fold.messages.length = same;
    fold.values.length = same;
    while (same < history.length && settled(history[same]!)) {
      fold.messages.push(history[same]!);
      fold.values.push(derive(history[same]!));
      same++;
    }
    if (same === history.length) return fold.values;
    return [...fold.values, ...history.slice(same).map(derive)];
  };
}
