// How full the context is: the one figure the meter's headline, its breakdown's total, GET /context, the
// conversation's contextUsage, the context hint and the live usage chunks all show. It is the size of the next model
// input (system prompt + tool definitions + summary + the messages since the last compression, hints included),
// counted with the tokenizer; it grows with the conversation and drops only at a compression. Provider reports are
// not mixed in: they count differently (some leave out the tools), and mixing them made the figure jump back and
// forth. Message counts are cached per stored message and kept as running totals, so neither a page load nor a step
// re-tokenizes the conversation.
import { summaryMessageText, summaryWithLedger } from "../agent/compression.ts";
import { countModelMessageTokens } from "../agent/context-usage.ts";
import type { Settings } from "../agent/settings.ts";
import { toModelMessages } from "../agent/to-model-messages.ts";
import { countTokens, createTokenCounter } from "../agent/token-count.ts";
import { sharedBoundedMap } from "../bounded-map.ts";
import type { ChatMessage, CompressionData, ContextUsage, McpToolTokens } from "../chat-message.ts";
import { historyTotals } from "./history-fold.ts";
import { modelMessagesOf } from "./model-messages.ts";
import { eachYielding } from "./yielding.ts";

/** `stamps`: how many timestamps the message gets with timestamps on (the person's text, each tool result). */
type MessageCount = { total: number; hints: number; stamps: number };
/** A timestamp prefix's tokens ("[2025-09-14 10:30:45] ": the digits always split the same way). */
let stampTokens: number | undefined;
const STAMP_TOKENS = () => (stampTokens ??= countTokens("[2025-09-14 10:30:45] "));

function stampsOf(message: ChatMessage): number {
  if (message.role === "user") return message.parts.some((p) => p.type === "text" && p.text) ? 1 : 0;
  let n = 0;
  for (const p of message.parts) {
    const state = (p as { state?: unknown }).state;
    if (
      (p.type.startsWith("tool-") || p.type === "dynamic-tool") &&
      (state === "output-available" || state === "output-error")
    )
      n++;
  }
  return n;
}
/** The system prompt and the summary are the same texts turn after turn. */
const countRepeated = createTokenCounter(16);

/**
 * Across reloads of the same rows (page views): keyed by what identifies a stored message's content. One cache for
 * the process (the pages' bundle and the API routes' share it), bounded by entries and bytes: room for the 20,000
 * messages the history cache holds, with UUIDs for ids (a conversation longer than the cache is read in order, least
 * recently used first, so it would find none of its counts and tokenize the whole of it on every open).
 */
export const MESSAGE_TOKENS_MAX_BYTES = 6 * 1024 * 1024;
const byKey = sharedBoundedMap<string, MessageCount>("message-tokens", {
  maxEntries: 20_000,
  maxBytes: MESSAGE_TOKENS_MAX_BYTES,
  // The key's text and the map's slot, the count object and its fields.
  sizeOf: (key) => 2 * key.length + 160,
});

/** A stored message's tokens as the model receives it (cached once the message is settled). */
export function messageTokens(message: ChatMessage): number {
  return messageCount(message).total;
}

/** The same with its timestamps when the settings turn them on. */
export function stampedMessageTokens(message: ChatMessage, settings: Settings): number {
  const { total, stamps } = messageCount(message);
  return settings.injection.timestamps ? total + stamps * STAMP_TOKENS() : total;
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
  // Joined rather than concatenated: a key built with + or a template is a chain of string pieces V8 keeps as such.
  const key = [
    message.id,
    message.metadata?.createdAt ?? "",
    message.parts.length,
    message.metadata?.status ?? "complete",
  ].join(":");
  const hit = byKey.get(key);
  if (hit) return hit;
  const count = countMessage(message, modelMessagesOf([message]));
  // Only settled messages are cached; a streaming reply changes.
  if (message.metadata?.status !== "streaming") byKey.set(key, count);
  return count;
}

/**
 * `converted`: the message as model messages. A reply still being written is converted afresh (its object changes in
 * place, so no conversion cached by identity may be used for it).
 */
function countMessage(message: ChatMessage, converted = toModelMessages([message])): MessageCount {
  const total = countModelMessageTokens(converted);
  const hints = message.parts.reduce(
    (n, p) => (p.type === "data-hint" ? n + countTokens(String((p.data as { text?: unknown })?.text ?? "")) + 4 : n),
    0,
  );
  return { total, hints, stamps: stampsOf(message) };
}

/** Running totals over a conversation's messages, extended turn by turn rather than summed again. */
const totalsOf = historyTotals(
  messageCount,
  (a, b) => ({ total: a.total + b.total, hints: a.hints + b.hints, stamps: a.stamps + b.stamps }),
  { total: 0, hints: 0, stamps: 0 },
);

/** Counts a conversation's messages ahead of its next reply (after an import), so that reply only adds to them. */
export function warmTokenCounts(history: readonly ChatMessage[]): void {
  totalsOf(history);
}

/**
 * Counts every message not counted yet and extends the running totals over them, in slices that let other requests
 * run: a long conversation opened cold (after an import or a restart), or read afresh (new message objects, whose
 * counts are found in the cache but must still be summed), is then measured without holding the event loop for the
 * whole of it.
 */
export async function precountTokens(history: readonly ChatMessage[]): Promise<void> {
  // A conversation whose running totals hold all but its newest few messages needs no pass over the others.
  if (history.length - totalsOf.known(history) <= PRECOUNT_UNSLICED) return;
  await totalsOf.warm(history);
  // What follows a reply still being written is counted afresh on every measure: counted (and cached) here.
  await eachYielding(history.slice(totalsOf.known(history)), messageCount);
}

/** New messages the next totals may count in one go (a turn adds two; an agent's reply with tools a few more). */
const PRECOUNT_UNSLICED = 64;

const MESSAGE_OVERHEAD = countModelMessageTokens([{ role: "user", content: "" }]);

/** The summary as the model receives it: one user message. */
function summaryTokens(summary: string): number {
  return summary ? countRepeated(summaryMessageText(summary)) + MESSAGE_OVERHEAD : 0;
}

/** The newest compression a reply in progress made (before its first step, or between two of its steps). */
function compressionIn(reply: ChatMessage | undefined): CompressionData | undefined {
  const parts = reply?.parts ?? [];
  for (let i = parts.length - 1; i >= 0; i--) {
    const part = parts[i]!;
    if (part.type === "data-compression") return part.data as CompressionData;
  }
  return undefined;
}

/**
 * The size of the next model input and its breakdown by kind; `inputTokens` is always the breakdown's sum. With a
 * `reply` being written (not part of `history`), what it holds so far counts too, and a compression it made
 * replaces `summary` and `tailStart` (it kept the newest `keptMessages` of `history`).
 */
export function contextUsageFor({
  settings,
  contextWindow,
  system,
  summary = "",
  history,
  tailStart = 0,
  tools = 0,
  mcpTools,
  reply,
}: {
  settings: Settings;
  contextWindow: number;
  system: string;
  summary?: string;
  /** Every stored message of the conversation (without `reply`). */
  history: readonly ChatMessage[];
  /** Where the model context starts in `history` (after a compression). */
  tailStart?: number;
  tools?: number;
  /** The conversation's MCP tools, counted into `tools` and listed per server. */
  mcpTools?: McpToolTokens;
  reply?: ChatMessage;
}): ContextUsage {
  const compressed = compressionIn(reply);
  if (compressed) {
    summary = summaryWithLedger(compressed.summary, compressed.ledger);
    tailStart = Math.max(0, history.length - compressed.keptMessages);
  }
  const totalOf = totalsOf(history);
  const whole = totalOf(history.length);
  const before = totalOf(tailStart);
  const replying = reply ? countMessage(reply) : { total: 0, hints: 0, stamps: 0 };
  // Timestamps are not part of the cached counts (they depend on the settings): counted by how many there are.
  const stamps = settings.injection.timestamps ? (whole.stamps - before.stamps + replying.stamps) * STAMP_TOKENS() : 0;
  const all = whole.total - before.total + replying.total + stamps;
  const hints = whole.hints - before.hints + replying.hints;
  const breakdown = {
    system: countRepeated(system),
    tools: tools + Object.values(mcpTools?.byServer ?? {}).reduce((n, t) => n + t, 0),
    summary: summaryTokens(summary),
    messages: all - hints,
    hints,
  };
  const { triggerRatio } = settings.context;
  return {
    inputTokens: breakdown.system + breakdown.tools + breakdown.summary + breakdown.messages + breakdown.hints,
    contextWindow,
    triggerTokens: Math.floor(triggerRatio * contextWindow),
    bufferStartTokens: Math.floor(Math.max(0, triggerRatio - settings.injection.contextBufferRatio) * contextWindow),
    breakdown,
    ...(mcpTools && Object.keys(mcpTools.byServer).length ? { toolsByServer: { ...mcpTools.byServer } } : {}),
  };
}
