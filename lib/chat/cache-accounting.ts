// The provider's cache, accounted per conversation: each model call's figures (stored in its assistant message's
// metadata.usage), the totals over the conversation (running totals kept per conversation, not summed per call),
// and the cache breaks the detector finds (kept, newest last, in the conversation's agent state).
import { asSchema, type ToolSet } from "ai";
import { type CallInput, type CacheBreakDetector, createCacheBreakDetector } from "../agent/cache-breaks.ts";
import type { CacheBreak, CacheTotals, CallUsage, ChatMessage } from "../chat-message.ts";
import { sharedBoundedMap } from "../bounded-map.ts";
import { historyTotals } from "./history-fold.ts";

/** Breaks kept per conversation (the newest). */
export const CACHE_BREAKS_KEPT = 50;
/**
 * Conversations whose last call the server remembers (the least recently used is dropped). A detector keeps its last
 * call's model messages, and with them everything derived from them and held weakly by them (the converted prompt,
 * lib/agent/converted-prefix.ts, and the request's JSON, lib/ai/kept-request-json.ts): about three times their JSON,
 * which is what it is weighed at. One set for the process. A conversation dropped here only misses the comparison of
 * its next call (no break is reported for it).
 */
const DETECTORS_KEPT = 200;
export const DETECTORS_MAX_BYTES = 48 * 1024 * 1024;

/** Summed figures of the calls so far, and the newest call's own figures (null: no call with figures yet). */
type CallTotals = { calls: number; inputTokens: number; cachedInputTokens: number; last: CacheTotals | null };
const ZERO: CallTotals = { calls: 0, inputTokens: 0, cachedInputTokens: 0, last: null };

/** A stored figure (metadata is JSON, an import may bring anything): a whole number of tokens, or none. */
const tokens = (n: unknown): number | undefined => (Number.isSafeInteger(n) && (n as number) >= 0 ? (n as number) : undefined);

function callsOf(message: ChatMessage): CallUsage[] {
  const usage = message.role === "assistant" ? message.metadata?.usage : undefined;
  return Array.isArray(usage) ? usage : [];
}

/** A call's own figures, when it has an input figure. */
function figuresOf(call: CallUsage | undefined): CacheTotals | null {
  const inputTokens = tokens(call?.inputTokens);
  return inputTokens === undefined ? null : { inputTokens, cachedInputTokens: tokens(call?.cachedInputTokens) ?? 0 };
}

function totalsOfMessage(message: ChatMessage): CallTotals {
  return totalsOfCalls(callsOf(message));
}

function totalsOfCalls(calls: readonly CallUsage[]): CallTotals {
  if (calls.length === 0) return ZERO;
  let inputTokens = 0;
  let cachedInputTokens = 0;
  for (const call of calls) {
    inputTokens += tokens(call?.inputTokens) ?? 0;
    cachedInputTokens += tokens(call?.cachedInputTokens) ?? 0;
  }
  // `last`: the newest call's figures (the reply's, else the last message with calls), kept in the running totals.
  return { calls: calls.length, inputTokens, cachedInputTokens, last: figuresOf(calls.at(-1)) };
}

const add = (a: CallTotals, b: CallTotals): CallTotals => ({
  calls: a.calls + b.calls,
  inputTokens: a.inputTokens + b.inputTokens,
  cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
  last: b.calls ? b.last : a.last,
});

const totalsOf = historyTotals(totalsOfMessage, add, ZERO);

/** Model calls of the history (and of a reply being written) and their summed input figures. */
export function conversationCallTotals(history: readonly ChatMessage[], reply?: CallUsage[]): CallTotals {
  const totals = totalsOf(history)(history.length);
  return reply?.length ? add(totals, totalsOfCalls(reply)) : totals;
}

/**
 * The cache figures of the conversation's calls after its first (which no cache can serve): what its provider caches
 * of what it has seen. Finds the first call from the start (the first reply, in practice).
 */
export function cacheAfterFirstCall(history: readonly ChatMessage[]): { calls: number; inputTokens: number; cachedInputTokens: number } {
  const totals = conversationCallTotals(history);
  const replied = history.find((m) => callsOf(m).length > 0);
  const first = replied ? figuresOf(callsOf(replied)[0]) : null;
  if (!first) return { calls: totals.calls, inputTokens: totals.inputTokens, cachedInputTokens: totals.cachedInputTokens };
  return { calls: totals.calls - 1, inputTokens: totals.inputTokens - first.inputTokens, cachedInputTokens: totals.cachedInputTokens - first.cachedInputTokens };
}

export function cacheFigures(history: readonly ChatMessage[], reply?: CallUsage[]) {
  const totals = conversationCallTotals(history, reply);
  return {
    lastCall: totals.last,
    conversation: { inputTokens: totals.inputTokens, cachedInputTokens: totals.cachedInputTokens },
  };
}

/** The tool definitions as one string, for the detector (a handful of small schemas). */
export function toolsKey(tools: ToolSet): string {
  return JSON.stringify(
    Object.entries(tools).map(([name, t]) => [name, t.description ?? "", asSchema(t.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema]),
  );
}

const detectors = sharedBoundedMap<string, CacheBreakDetector>("cache-break-detectors", {
  maxEntries: DETECTORS_KEPT,
  maxBytes: DETECTORS_MAX_BYTES,
  sizeOf: (_id, detector) => 3 * detector.heldBytes(),
});

/** Compares a call's input with the conversation's previous call; the break it was, if any, numbered `call`. */
export function observeCall(conversationId: string, call: number, input: CallInput, now = new Date()): CacheBreak | undefined {
  const detector = detectors.get(conversationId) ?? createCacheBreakDetector();
  const found = detector.observe(input);
  detectors.set(conversationId, detector); // re-weighed with this call's messages, the most recently used
  return found ? { call, ...found, at: now.toISOString() } : undefined;
}

/** A conversation's calls are compared from the next one on afresh (it was deleted, or replaced by an import). */
export function forgetCalls(conversationId: string): void {
  detectors.delete(conversationId);
}

const CAUSES = new Set(["compression", "prompt-edit", "settings-edit", "replaced-status", "retry", "branch", "unexpected"]);
const CHANGED = new Set(["system", "tools", "messages"]);

/** Stored breaks read defensively (agent state is JSON). */
export function parseCacheBreaks(value: unknown): CacheBreak[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const breaks = value.filter(
    (b): b is CacheBreak =>
      typeof b === "object" &&
      b !== null &&
      Number.isSafeInteger(b.call) &&
      (b.firstChangedMessage === null || Number.isSafeInteger(b.firstChangedMessage)) &&
      CAUSES.has(b.cause) &&
      CHANGED.has(b.changed) &&
      typeof b.at === "string",
  );
  return breaks.slice(-CACHE_BREAKS_KEPT);
}
