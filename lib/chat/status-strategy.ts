// The injection strategy within one reply (lib/agent/injection-strategy.ts has the rules): before each model call it
// measures the call's full status (S) and the suffix added since the last call (R), decides append or replace, and
// supersedes the status the previous call carried under replace. A replaced status is superseded before the next
// call of the same reply, and when the reply ends (its last call is over: whatever call comes next gets its own
// status), so a settled message never changes afterwards and the history stays append-only at the message level.
import { countModelMessageTokens } from "../agent/context-usage.ts";
import { cachedPriceRatio, decideStrategy, NO_FIGURES, recordCall, type StrategyDecision, type StrategyFigures } from "../agent/injection-strategy.ts";
import type { Settings } from "../agent/settings.ts";
import { countTokens } from "../agent/token-count.ts";
import { toModelMessages } from "../agent/to-model-messages.ts";
import { priceFor } from "../ai/prices.ts";
import type { ChatChunk, ChatMessage, HintData } from "../chat-message.ts";
import { messageTokens } from "./context-usage.ts";
import type { StatusUpdate } from "./runtime-hints.ts";

type HintChunk = Extract<ChatChunk, { type: "data-hint" }>;

/**
 * Tokens of a reply's last step that the next call adds after the previous call's input: the model's output and the
 * tool results after its last step start (statuses and other hints are left out). Only that step is converted.
 */
export function lastStepSuffixTokens(reply: ChatMessage): number {
  const start = reply.parts.findLastIndex((p) => p.type === "step-start");
  if (start < 0) return 0;
  const parts = reply.parts.slice(start + 1).filter((p) => p.type !== "data-hint");
  return countModelMessageTokens(toModelMessages([{ ...reply, parts }]));
}

/**
 * What the first call of a reply adds after the previous reply's last call: that reply's last step and the person's
 * message. Walks back from the end only to the previous reply.
 */
export function firstCallSuffixTokens(history: readonly ChatMessage[]): number | undefined {
  const person = history.at(-1);
  if (!person || person.role !== "user") return undefined;
  const previous = history.at(-2);
  if (!previous) return undefined;
  return messageTokens(person) + (previous.role === "assistant" ? lastStepSuffixTokens(previous) : messageTokens(previous));
}

export function createStatusStrategy({
  settings,
  modelId,
  figures: stored,
  lastUpdate: storedUpdate,
}: {
  settings: Settings;
  modelId: string;
  figures?: StrategyFigures;
  lastUpdate?: StatusUpdate;
}) {
  let figures = stored ?? NO_FIGURES;
  let lastUpdate = storedUpdate;
  const alpha = cachedPriceRatio(priceFor(modelId));
  let open: { chunk: HintChunk; quiet: boolean } | undefined;
  let sentReplace = false;
  let decision: StrategyDecision | undefined;

  return {
    /**
     * Decides the next call's strategy from its full status, the suffix since the last call and `update`: the state
     * this call's status tells when it changed since the last update (undefined: unchanged). Counts the call.
     */
    decide(status: string, suffixTokens: number | undefined, update: StatusUpdate | undefined): StrategyDecision {
      const statusTokens = countTokens(status) + 4;
      sentReplace = false;
      const suffix = figures.calls > 0 ? suffixTokens : undefined;
      const changed = update !== undefined;
      decision = decideStrategy({ configured: settings.injection.strategy, figures, statusTokens, suffixTokens: suffix, changed, alpha });
      figures = recordCall(figures, { statusTokens, suffixTokens: suffix, changed });
      if (update) lastUpdate = update;
      return decision;
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

export type StatusStrategy = ReturnType<typeof createStatusStrategy>;

/** Marks the hint `id` in a settled reply's parts superseded (the reply's last replace status, as the reply ends). */
export function markSuperseded(reply: ChatMessage, id: string): void {
  for (const part of reply.parts) {
    if (part.type === "data-hint" && part.id === id) part.data = { ...(part.data as HintData), superseded: true };
  }
}
