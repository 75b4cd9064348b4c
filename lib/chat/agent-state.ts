// The harness state kept per conversation between replies (stored as JSON, read defensively).
import type { LastCallUsage } from "../agent/context-usage.ts";
import type { HoldFields } from "../agent/compression-hold.ts";
import { parseLedgerItems } from "../agent/evidence-ledger.ts";
import {
  INJECTION_STRATEGIES,
  parseStrategyFigures,
  type StrategyDecision,
  type StrategyFigures,
} from "../agent/injection-strategy.ts";
import type { StatusUpdate } from "../agent/step-decision.ts";
import type { CacheBreak, LedgerItem } from "../chat-message.ts";
import { getConversation, mergeAgentState, setAgentState } from "../db/conversations.ts";
import { CACHE_BREAKS_KEPT, parseCacheBreaks } from "./cache-accounting.ts";

/**
 * The model context's compression: where it starts in the stored history, and the summary and ledger before it; the
 * figure it left and the window the person was told a compression could not get under the trigger in (HoldFields).
 */
export type CompressionState = HoldFields & {
  summary: string;
  keptFromId: string;
  summarizedCount: number;
  /** Kept verbatim with the summary (sent with it), and what the bound left out (shown, pinnable). */
  ledger?: LedgerItem[];
  dropped?: LedgerItem[];
  /** Items the person pinned since: they join the ledger, for good, at the next compression. */
  pins?: LedgerItem[];
};

export type AgentState = {
  /** The provider's report for the last model call, to count the next input incrementally. */
  lastCall?: LastCallUsage;
  /**
   * How many times the person changed the task list (the agent has heard of them when a runtime hint in its input
   * covers that many: see lib/agent/hints/told.ts).
   */
  taskEdits?: number;
  /** The edits a step went through without a task hint (none open then): news for that reply's step only. */
  taskEditsNoticed?: { count: number; replyId: string };
  /** The model context's summary and where its kept tail starts. */
  compression?: CompressionState;
  /** Model calls whose input was not an extension of the previous call's (newest last, bounded). */
  cacheBreaks?: CacheBreak[];
  /** The injection strategy's running figures (S, R, N), and what the last model call chose and why. */
  strategy?: StrategyFigures;
  strategyDecision?: StrategyDecision;
  /** The runtime state at the last update of the cost model (auto compares each call's state with it). */
  strategyUpdate?: StatusUpdate;
  /** Moves with every branch edit or switch (the next call's input diverges there, by the person's choice). */
  branchEpoch?: number;
};

function parseDecision(value: unknown): StrategyDecision | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const d = value as Record<string, unknown>;
  const numbers = [d.S, d.h, d.p, d.M, d.alpha, d.appendCost, d.replaceCost].every(
    (n) => typeof n === "number" && Number.isFinite(n) && n >= 0,
  );
  if (!numbers || typeof d.reason !== "string" || (d.chosen !== "append" && d.chosen !== "replace")) return undefined;
  if (!(INJECTION_STRATEGIES as readonly unknown[]).includes(d.configured)) return undefined;
  const alphaFrom = d.alphaFrom === "measured" ? "measured" : "prices";
  const { S, h, p, M, alpha, appendCost, replaceCost } = d as Record<string, number>;
  // w, where writes cost more than input (Claude, GPT-5.6; 2 under Anthropic's 1-hour cache): kept, as the decision was.
  const writeRatio = typeof d.writeRatio === "number" && Number.isFinite(d.writeRatio) && d.writeRatio > 1;
  return {
    configured: d.configured,
    chosen: d.chosen,
    reason: d.reason,
    S,
    h,
    p,
    M,
    alpha,
    alphaFrom,
    appendCost,
    replaceCost,
    ...(writeRatio ? { writeRatio: d.writeRatio } : {}),
  } as StrategyDecision;
}

const isCount = (v: unknown): v is number => typeof v === "number" && Number.isFinite(v) && v >= 0;

export function parseAgentState(value: unknown): AgentState {
  if (typeof value !== "object" || value === null) return {};
  const raw = value as Record<string, unknown>;
  const state: AgentState = {};
  const last = raw.lastCall as Record<string, unknown> | undefined;
  if (last && isCount(last.inputTokens) && isCount(last.outputTokens) && isCount(last.messageCount)) {
    state.lastCall = {
      inputTokens: last.inputTokens,
      outputTokens: last.outputTokens,
      messageCount: last.messageCount,
    };
  }
  if (isCount(raw.taskEdits)) state.taskEdits = Math.floor(raw.taskEdits);
  else if (raw.tasksEditedByPerson === true) state.taskEdits = 1; // stored before edits were counted
  const noticed = raw.taskEditsNoticed as Record<string, unknown> | undefined;
  if (noticed && isCount(noticed.count) && typeof noticed.replyId === "string")
    state.taskEditsNoticed = { count: noticed.count, replyId: noticed.replyId };
  if (isCount(raw.branchEpoch)) state.branchEpoch = raw.branchEpoch;
  const c = raw.compression as Record<string, unknown> | undefined;
  if (c && typeof c.summary === "string" && typeof c.keptFromId === "string" && isCount(c.summarizedCount)) {
    state.compression = { summary: c.summary, keptFromId: c.keptFromId, summarizedCount: c.summarizedCount };
    for (const key of ["ledger", "dropped", "pins"] as const) {
      const items = parseLedgerItems(c[key]);
      if (items.length) state.compression[key] = items;
    }
    const left = c.left as Record<string, unknown> | undefined;
    if (left && isCount(left.inputTokens) && isCount(left.contextWindow) && left.contextWindow > 0)
      state.compression.left = { inputTokens: left.inputTokens, contextWindow: left.contextWindow };
    if (isCount(c.stuckToldFor)) state.compression.stuckToldFor = c.stuckToldFor;
  }
  const figures = parseStrategyFigures(raw.strategy);
  if (figures) state.strategy = figures;
  const decision = parseDecision(raw.strategyDecision);
  if (decision) state.strategyDecision = decision;
  const update = raw.strategyUpdate as Record<string, unknown> | undefined;
  if (update && typeof update.text === "string" && isCount(update.pending) && isCount(update.inProgress)) {
    state.strategyUpdate = { text: update.text, pending: update.pending, inProgress: update.inProgress };
  }
  const breaks = parseCacheBreaks(raw.cacheBreaks);
  if (breaks?.length) state.cacheBreaks = breaks;
  return state;
}

/** Appends a cache break to the conversation's kept ones (the oldest beyond the bound are dropped). */
export function recordCacheBreak(conversationId: string, found: CacheBreak): Promise<void> {
  return patchAgentState(conversationId, (state) => ({
    cacheBreaks: [...(state.cacheBreaks ?? []), found].slice(-CACHE_BREAKS_KEPT),
  }));
}

// A patch of keys is merged in one statement; one computed from the state reads it and writes it back. Patches of one
// conversation run one after another, so that none overwrites another's change (a reply's step, its cache-break record
// and the person's task edit may overlap).
const patchQueues = new Map<string, Promise<void>>();

/** Merges `patch` (or what it computes from the current state) into the stored state; undefined values remove keys. */
export function patchAgentState(
  conversationId: string,
  patch: Partial<AgentState> | ((state: AgentState) => Partial<AgentState>),
): Promise<void> {
  const previous = patchQueues.get(conversationId);
  const apply = async () => {
    if (typeof patch === "object") {
      // What a step stores: merged in one statement, without reading the state first.
      const entries = Object.entries(patch);
      const set = Object.fromEntries(entries.filter(([, value]) => value !== undefined));
      await mergeAgentState({
        id: conversationId,
        set,
        unset: entries.filter(([, value]) => value === undefined).map(([key]) => key),
      });
      return;
    }
    const conversation = await getConversation({ id: conversationId });
    if (!conversation) return;
    const state = parseAgentState(conversation.agentState);
    const next: Record<string, unknown> = { ...state, ...patch(state) };
    for (const key of Object.keys(next)) if (next[key] === undefined) delete next[key];
    await setAgentState({ id: conversationId, agentState: next });
  };
  const run = previous ? previous.then(apply, apply) : apply();
  patchQueues.set(conversationId, run);
  const forget = () => {
    if (patchQueues.get(conversationId) === run) patchQueues.delete(conversationId);
  };
  run.then(forget, forget);
  return run;
}
