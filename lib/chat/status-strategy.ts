// The injection strategy within one reply (lib/agent/injection-strategy.ts has the rules): before each model call it
// measures the call's full status (S), decides append or replace from the conversation's figures and what its provider
// actually cached, and supersedes the status the previous call carried under replace. A replaced status is superseded
// before the next call of the same reply, and when the reply ends (its last call is over: whatever call comes next
// gets its own status), so a settled message never changes afterwards and the history stays append-only at the
// message level.
import {
  alphaFor,
  cachedPriceRatio,
  type ChosenStrategy,
  decideStrategy,
  type MeasuredCache,
  NO_FIGURES,
  recordCall,
  recordHint,
  type StrategyDecision,
  type StrategyFigures,
} from "../agent/injection-strategy.ts";
import type { Settings } from "../agent/settings.ts";
import { countTokens } from "../agent/token-count.ts";
import { cacheWriteRatio, priceFor } from "../ai/prices.ts";
import type { ChatChunk, ChatMessage, HintData } from "../chat-message.ts";
import type { StatusUpdate } from "./runtime-hints.ts";

type HintChunk = Extract<ChatChunk, { type: "data-hint" }>;

export function createStatusStrategy({
  settings,
  modelId,
  figures: stored,
  lastUpdate: storedUpdate,
  previous,
  measured,
}: {
  settings: Settings;
  modelId: string;
  figures?: StrategyFigures;
  lastUpdate?: StatusUpdate;
  /** What the conversation's last call chose. */
  previous?: ChosenStrategy;
  /** The conversation's cache figures so far (its calls after the first). */
  measured?: () => MeasuredCache;
}) {
  let figures = stored ?? NO_FIGURES;
  let lastUpdate = storedUpdate;
  const price = priceFor(modelId);
  const priceRatio = cachedPriceRatio(price);
  const writeRatio = cacheWriteRatio(price);
  let open: { chunk: HintChunk; quiet: boolean } | undefined;
  let sentReplace = false;
  let decision: StrategyDecision | undefined;

  return {
    /**
     * Decides the next call's strategy from its full status and `update`: the state this call's status tells when it
     * changed since the last update (undefined: unchanged). Counts the call.
     */
    decide(status: string, update: StatusUpdate | undefined): StrategyDecision {
      const statusTokens = countTokens(status) + 4;
      sentReplace = false;
      const changed = update !== undefined;
      const configured = settings.injection.strategy;
      // Measured only when it can matter: under auto.
      const { alpha, from } = configured === "auto" ? alphaFor(priceRatio, measured?.()) : { alpha: priceRatio, from: "prices" as const };
      decision = decideStrategy({ configured, figures, statusTokens, changed, alpha, alphaFrom: from, writeRatio, previous: decision?.chosen ?? previous });
      figures = recordCall(figures, { statusTokens, changed });
      if (update) lastUpdate = update;
      return decision;
    },
    /** Append sent a hint of this text (h of the cost model). */
    sentHint(text: string): void {
      figures = recordHint(figures, countTokens(text) + 4);
    },
    /** The state at the last update, to compare the next call's with. */
    lastUpdate: () => lastUpdate,
    /** The chunk that marks the open replace status superseded (streamed, or quiet as it was), and forgets it. */
    supersede(): { chunk: HintChunk; quiet: boolean } | undefined {
      if (!open) return undefined;
      const { chunk, quiet } = open;
      open = undefined;
      const data: HintData = { ...chunk.data, superseded: true };
      return { chunk: { ...chunk, data }, quiet };
    },
    /** The status this call carries under replace: superseded before the next call. */
    opened(chunk: HintChunk, quiet: boolean): void {
      open = { chunk, quiet };
      sentReplace = true;
    },
    /** Whether the call about to be made (or just made) ends with a replace status. */
    endsWithReplace: () => sentReplace,
    /** The status still open (the reply's last call carried it), to supersede as the reply ends. */
    openId: () => open?.chunk.id,
    figures: () => figures,
    decision: () => decision,
  };
}

/** Marks the hint `id` in a settled reply's parts superseded (the reply's last replace status, as the reply ends). */
export function markSuperseded(reply: ChatMessage, id: string): void {
  for (const part of reply.parts) {
    if (part.type === "data-hint" && part.id === id) part.data = { ...(part.data as HintData), superseded: true };
  }
}
