// The provider's cache, accounted per conversation: each model call's figures (stored in its assistant message's
// metadata.usage), the totals over the conversation (running totals kept per conversation, not summed per call),
// and the cache breaks the detector finds (kept, newest last, in the conversation's agent state). The detector's
// baseline (the last call, as hashes) is stored with the conversation, so the first call after a restart or on another
// instance is compared too.
import { asSchema, generateId, type ToolSet } from "ai";
import { type BreakpointTracker, createBreakpointTracker } from "../agent/cache-breakpoints.ts";
import {
  type CallInput,
  type CacheBreakDetector,
  createCacheBreakDetector,
  parseCallBaseline,
} from "../agent/cache-breaks.ts";
import { belowCacheFloor } from "../ai/model-families.ts";
import type { CacheBreak, CallCacheFigures, CallUsage, ChatMessage } from "../chat-message.ts";
import { sharedBoundedMap } from "../bounded-map.ts";
import { getCacheBaseline, getCacheBaselineVersion, putCacheBaseline } from "../db/cache-baselines.ts";
import { logFailure } from "../log/logger.ts";
import { historyTotals } from "./history-fold.ts";

/** Breaks kept per conversation (the newest). */
export const CACHE_BREAKS_KEPT = 50;
/**
 * Conversations whose last call the server remembers (the least recently used is dropped). A detector keeps its last
 * call's model messages, and with them what is derived from them and held weakly by them: weighed at three times their
 * JSON. One set for the process. A conversation dropped here only misses the comparison of
 * its next call (no break is reported for it).
 */
const DETECTORS_KEPT = 200;
export const DETECTORS_MAX_BYTES = 48 * 1024 * 1024;

/** Summed figures of the calls so far, and the newest call's own figures (null: no call with figures yet). */
type CallTotals = { calls: number; inputTokens: number; cachedInputTokens: number; last: CallCacheFigures | null };
const ZERO: CallTotals = { calls: 0, inputTokens: 0, cachedInputTokens: 0, last: null };

/** A stored figure (metadata is JSON, an import may bring anything): a whole number of tokens, or none. */
const tokens = (n: unknown): number | undefined =>
  Number.isSafeInteger(n) && (n as number) >= 0 ? (n as number) : undefined;

function callsOf(message: ChatMessage): CallUsage[] {
  const usage = message.role === "assistant" ? message.metadata?.usage : undefined;
  return Array.isArray(usage) ? usage : [];
}

/** A call's own figures, when it has an input figure, with the model's cache floor where that explains a zero read. */
function figuresOf(call: CallUsage | undefined, model?: string): CallCacheFigures | null {
  const inputTokens = tokens(call?.inputTokens);
  if (inputTokens === undefined) return null;
  const figures = { inputTokens, cachedInputTokens: tokens(call?.cachedInputTokens) ?? 0 };
  const floor = belowCacheFloor(model, figures);
  return floor === undefined ? figures : { ...figures, cacheReason: "below-cache-floor", minCacheTokens: floor };
}

function totalsOfMessage(message: ChatMessage): CallTotals {
  return totalsOfCalls(callsOf(message), message.role === "assistant" ? message.metadata?.model : undefined);
}

function totalsOfCalls(calls: readonly CallUsage[], model?: string): CallTotals {
  if (calls.length === 0) return ZERO;
  let inputTokens = 0;
  let cachedInputTokens = 0;
  for (const call of calls) {
    inputTokens += tokens(call?.inputTokens) ?? 0;
    cachedInputTokens += tokens(call?.cachedInputTokens) ?? 0;
  }
  // `last`: the newest call's figures (the reply's, else the last message with calls), kept in the running totals.
  return { calls: calls.length, inputTokens, cachedInputTokens, last: figuresOf(calls.at(-1), model) };
}

const add = (a: CallTotals, b: CallTotals): CallTotals => ({
  calls: a.calls + b.calls,
  inputTokens: a.inputTokens + b.inputTokens,
  cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
  last: b.calls ? b.last : a.last,
});

const totalsOf = historyTotals(totalsOfMessage, add, ZERO);

/** Model calls of the history (and of a reply being written, to `replyModel`) and their summed input figures. */
export function conversationCallTotals(
  history: readonly ChatMessage[],
  reply?: CallUsage[],
  replyModel?: string,
): CallTotals {
  const totals = totalsOf(history)(history.length);
  return reply?.length ? add(totals, totalsOfCalls(reply, replyModel)) : totals;
}

/**
 * The cache figures of the conversation's calls after its first (which no cache can serve): what its provider caches
 * of what it has seen. Finds the first call from the start (the first reply, in practice).
 */
export function cacheAfterFirstCall(history: readonly ChatMessage[]): {
  calls: number;
  inputTokens: number;
  cachedInputTokens: number;
} {
  const totals = conversationCallTotals(history);
  const replied = history.find((m) => callsOf(m).length > 0);
  const first = replied ? figuresOf(callsOf(replied)[0]) : null;
  if (!first)
    return { calls: totals.calls, inputTokens: totals.inputTokens, cachedInputTokens: totals.cachedInputTokens };
  return {
    calls: totals.calls - 1,
    inputTokens: totals.inputTokens - first.inputTokens,
    cachedInputTokens: totals.cachedInputTokens - first.cachedInputTokens,
  };
}

/** Extends the running totals over a long history in slices that let other requests run (it was read afresh). */
export function precountCacheFigures(history: readonly ChatMessage[]): Promise<void> {
  return totalsOf.warm(history);
}

export function cacheFigures(history: readonly ChatMessage[], reply?: CallUsage[], replyModel?: string) {
  const totals = conversationCallTotals(history, reply, replyModel);
  return {
    lastCall: totals.last,
    conversation: { inputTokens: totals.inputTokens, cachedInputTokens: totals.cachedInputTokens },
  };
}

/** The tool definitions as one string, for the detector (a handful of small schemas). */
export function toolsKey(tools: ToolSet): string {
  return JSON.stringify(
    Object.entries(tools).map(([name, t]) => [
      name,
      t.description ?? "",
      asSchema(t.inputSchema as Parameters<typeof asSchema>[0]).jsonSchema,
    ]),
  );
}

/** This process's detector of a conversation and the version of the stored baseline it last wrote (or read). */
export type KeptDetector = { detector: CacheBreakDetector; version: string | undefined };
const detectors = sharedBoundedMap<string, KeptDetector>("cache-break-detectors", {
  maxEntries: DETECTORS_KEPT,
  maxBytes: DETECTORS_MAX_BYTES,
  sizeOf: (_id, kept) => 3 * kept.detector.heldBytes(),
});

/** Keeps a conversation's detector, weighed with its newest call, as the most recently used. */
export function keepDetector(conversationId: string, kept: KeptDetector): void {
  detectors.set(conversationId, kept);
}

/**
 * The detector a reply compares its calls with: this process's own when the stored baseline is the one it wrote last
 * (its in-memory copy also knows the messages by identity), else one seeded from the stored baseline (written by
 * another instance, or before a restart), else a fresh one (the conversation's first call).
 */
async function detectorForReply(conversationId: string): Promise<KeptDetector> {
  let kept = detectors.get(conversationId);
  const version = (await getCacheBaselineVersion({ conversationId })) ?? undefined;
  if (!kept || kept.version !== version) {
    // A conversation's first reply has no baseline yet: only the version was read.
    const stored = version === undefined ? null : await getCacheBaseline({ conversationId });
    kept = { detector: createCacheBreakDetector(parseCallBaseline(stored?.data)), version: stored?.version };
  }
  keepDetector(conversationId, kept);
  return kept;
}

const trackers = sharedBoundedMap<string, BreakpointTracker>("cache-breakpoints", { maxEntries: DETECTORS_KEPT });

/** The conversation's cache breakpoints (Anthropic): where its previous call marked, kept like the detectors. */
export function breakpointsFor(conversationId: string): BreakpointTracker {
  const tracker = trackers.get(conversationId) ?? createBreakpointTracker();
  trackers.set(conversationId, tracker);
  return tracker;
}

/**
 * One reply's cache-break observer. A reply's calls run one after another on one instance (the reply lock), so the
 * stored baseline is read once, at its first call, and written after each.
 */
export function cacheBreakObserver(conversationId: string) {
  let kept: Promise<KeptDetector> | undefined;
  return {
    /**
     * Compares a call's input with the conversation's previous call and stores it as the next one's baseline (once
     * `ready`: the conversation's row is written); the break it was, if any, numbered `call`.
     */
    async observe(
      call: number,
      input: CallInput,
      ready: Promise<unknown> = Promise.resolve(),
      now = new Date(),
    ): Promise<CacheBreak | undefined> {
      kept ??= detectorForReply(conversationId);
      const own = await kept;
      const found = own.detector.observe(input);
      keepDetector(conversationId, own); // re-weighed with this call's messages
      const baseline = own.detector.baseline();
      if (baseline) {
        const version = generateId();
        // Until the write lands the stored baseline is not this process's copy: a failed write makes the next reply
        // read what is stored.
        own.version = undefined;
        await ready;
        await putCacheBaseline({ conversationId, version, data: baseline })
          .then(() => {
            own.version = version;
          })
          .catch(logFailure("storing the cache-break baseline failed", { conversationId }));
      }
      return found ? { call, ...found, at: now.toISOString() } : undefined;
    },
  };
}

/** A conversation's calls are compared from the next one on afresh (it was deleted, or replaced by an import). */
export function forgetCalls(conversationId: string): void {
  detectors.delete(conversationId);
}

const CAUSES = new Set([
  "compression",
  "prompt-edit",
  "settings-edit",
  "replaced-status",
  "retry",
  "branch",
  "model-switch",
  "tools-changed",
  "ttl-expired",
  "unexpected",
]);
const CHANGED = new Set(["model", "system", "tools", "messages", "time"]);

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
