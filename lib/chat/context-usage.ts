// How full the context is, for the meter: the headline figure counts like the injection rules do (provider report
// of the last call + tokenizer count of what was added since); the breakdown is a tokenizer count per kind. Message
// counts are cached per stored message, so a page load or a reply does not re-tokenize the whole conversation.
import { countModelMessageTokens, type LastCallUsage } from "../agent/context-usage.ts";
import type { Settings } from "../agent/settings.ts";
import { countTokens, createTokenCounter } from "../agent/token-count.ts";
import type { ChatMessage, ContextUsage } from "../chat-message.ts";
import { historyTotals } from "./history-fold.ts";
import { modelMessagesOf } from "./model-messages.ts";

type MessageCount = { total: number; hints: number };
/** The system prompt is the same text turn after turn. */
const countRepeated = createTokenCounter(16);

/** Across reloads of the same rows (page views): keyed by what identifies a stored message's content. */
const byKey = new Map<string, MessageCount>();
const BY_KEY_LIMIT = 20_000;

/** A stored message's tokens as the model receives it (cached once the message is settled). */
export function messageTokens(message: ChatMessage): number {
  return messageCount(message).total;
}

// The same message objects come back turn after turn (lib/db/history-cache.ts): looked up by identity first.
const byObject = new WeakMap<ChatMessage, MessageCount>();

function messageCount(message: ChatMessage): MessageCount {
  const known = byObject.get(message);
  if (known) return known;
  const count = countOnce(message);
  if (message.metadata?.status !== "streaming") byObject.set(message, count);
  return count;
}

function countOnce(message: ChatMessage): MessageCount {
  // Message ids are chosen by clients (and imported), so the creation time tells two conversations' messages apart.
  const key = `${message.id}:${message.metadata?.createdAt ?? ""}:${message.parts.length}:${message.metadata?.status ?? "complete"}`;
  const hit = byKey.get(key);
  if (hit) return hit;
  const total = countModelMessageTokens(modelMessagesOf([message]));
  const hints = message.parts.reduce(
    (n, p) => (p.type === "data-hint" ? n + countTokens(String((p.data as { text?: unknown })?.text ?? "")) + 4 : n),
    0,
  );
  const count = { total, hints };
  if (byKey.size >= BY_KEY_LIMIT) byKey.delete(byKey.keys().next().value as string);
  // Only settled messages are cached; a streaming reply changes.
  if (message.metadata?.status !== "streaming") byKey.set(key, count);
  return count;
}

/** Running totals over a conversation's messages, extended turn by turn rather than summed again. */
const totalsOf = historyTotals(messageCount, (a, b) => ({ total: a.total + b.total, hints: a.hints + b.hints }), { total: 0, hints: 0 });

/** Counts a conversation's messages ahead of its next reply (after an import), so that reply only adds to them. */
export function warmTokenCounts(history: readonly ChatMessage[]): void {
  totalsOf(history);
}

export function contextUsageFor({
  settings,
  contextWindow,
  system,
  summary = "",
  history,
  tailStart = 0,
  last,
  tools = 0,
}: {
  settings: Settings;
  contextWindow: number;
  system: string;
  summary?: string;
  /** Every stored message of the conversation. */
  history: readonly ChatMessage[];
  /** Where the model context starts in `history` (after a compression). */
  tailStart?: number;
  last?: LastCallUsage;
  tools?: number;
}): ContextUsage {
  const totalOf = totalsOf(history);
  const whole = totalOf(history.length);
  const hints = whole.hints - totalOf(tailStart).hints;
  const all = whole.total - totalOf(tailStart).total;
  const breakdown = {
    system: countRepeated(system),
    tools,
    summary: summary ? countTokens(summary) + 4 : 0,
    messages: all - hints,
    hints,
  };
  const tokenizerTotal = breakdown.system + breakdown.tools + breakdown.summary + all;
  // With a provider report for the last call: that, plus its output, plus only what was added since.
  const usable = last && last.inputTokens > 0 && last.messageCount <= history.length && last.messageCount >= tailStart;
  const added = usable ? whole.total - totalOf(last.messageCount).total : 0;
  const inputTokens = usable ? last.inputTokens + last.outputTokens + added : tokenizerTotal;
  const { triggerRatio } = settings.context;
  return {
    inputTokens,
    contextWindow,
    triggerTokens: Math.floor(triggerRatio * contextWindow),
    bufferStartTokens: Math.floor(Math.max(0, triggerRatio - settings.injection.contextBufferRatio) * contextWindow),
    breakdown,
  };
}
