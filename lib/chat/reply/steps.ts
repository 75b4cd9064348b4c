// Before every model call of a reply: read → decide → write. The step reads the conversation's state (the reply's
// first step uses what the reply read as it opened), folds what the next call's input already tells the agent, asks
// the one decision (lib/agent/step-decision.ts) — compress first, then which hints to append — and stores what it
// changed while the model call starts. A compression is the one effect inside the step: the decision is asked again
// on the compressed context.
import type { LanguageModel } from "ai";
import { countModelMessageTokens } from "../../agent/context-usage.ts";
import type { BeforeStepResult, StepContext } from "../../agent/reply-loop.ts";
import type { Settings } from "../../agent/settings.ts";
import { compressionDue, decideStep, type HintChunk, startStrategy, type StrategyState } from "../../agent/step-decision.ts";
import { type ConvertOptions, toModelMessages } from "../../agent/to-model-messages.ts";
import { cachedPriceRatio } from "../../agent/injection-strategy.ts";
import { neutralizeHintTags } from "../../agent/hints/neutralize-tags.ts";
import { HINT_MAX_CHARS } from "../../agent/hints/render-hint.ts";
import { cacheWriteRatio, priceFor } from "../../ai/prices.ts";
import type { ChatChunk, ChatMessage, HintData } from "../../chat-message.ts";
import { now as clockNow } from "../../clock.ts";
import type { ConversationMode } from "../../agent/plan-mode.ts";
import type { AgentState } from "../agent-state.ts";
import { cacheAfterFirstCall } from "../cache-accounting.ts";
import { type CompressionState, compressContext, summaryModelMessages, tailStart } from "../compression.ts";
import type { McpChangeTracker } from "../mcp-tool-changes.ts";
import { convertOptionsFor, modelMessagesOf } from "../model-messages.ts";
import type { PreparedContext } from "../prepare-context.ts";
import type { WorkspaceTracker } from "../workspace-view.ts";
import { nextTurn } from "../yielding.ts";
import { generateId } from "ai";
import { knownOf } from "./known.ts";
import { type ConversationState, readConversationState, readNews } from "./read-step.ts";
import { writeStep } from "./write-step.ts";

export type ReplyStepsOptions = {
  conversationId: string;
  replyId: string;
  /** The model that compresses (the utility model). */
  model: LanguageModel;
  modelId: string;
  settings: Settings;
  contextWindow: number;
  history: ChatMessage[];
  context: PreparedContext;
  /** The conversation's state as the reply opened (its first step decides on it). */
  opened: { agentState: AgentState; mode: ConversationMode; tasks: ConversationState["tasks"] };
  /** The frozen workspace (refreshed at a compression) and what changed in it. */
  workspace: WorkspaceTracker;
  /** What changed in the conversation's MCP tools. */
  mcpChanges?: McpChangeTracker;
  now?: () => Date;
};

export function createReplySteps(options: ReplyStepsOptions) {
  const { conversationId, settings, contextWindow, history, context, workspace } = options;
  const now = options.now ?? clockNow;
  let compression: CompressionState | undefined = context.compression;
  let tail = context.tail;
  /** The last call's input plus its output, as the provider reported them (or as estimated when it did not). */
  let lastStepTokens = context.usage.inputTokens;
  let reported = false;
  const stored = options.opened.agentState;
  let strategy: StrategyState = startStrategy({ figures: stored.strategy, lastUpdate: stored.strategyUpdate, previous: stored.strategyDecision?.chosen });
  let endsWithReplace = false;
  /** The settings the last step read (the system prompt of its call is built from them). */
  let current: Settings = settings;
  const price = priceFor(options.modelId);
  const prices = { cachedRatio: cachedPriceRatio(price), writeRatio: cacheWriteRatio(price) };
  // What a step stores is written while its model call starts; the next step (and the reply's end) waits for it.
  let written: Promise<void> | undefined;

  /** The size of this call's input before anything is appended, from the last call's reported figures. */
  const inputTokensOf = (step: StepContext): number => {
    if (step.stepIndex === 0) return context.usage.inputTokens;
    const tokens = lastStepTokens + tokensOfLastStep(step.reply, reported, convertOptionsFor(settings));
    if (!reported) lastStepTokens = tokens;
    reported = false;
    return tokens;
  };

  const compress = async (inputTokens: number): Promise<ChatChunk | undefined> => {
    const compressed = await compressContext({ conversationId, model: options.model, settings, contextWindow, history, state: compression, tokensBefore: inputTokens });
    if (!compressed) return undefined;
    compression = compressed.state;
    tail = history.slice(tailStart(history, compression));
    lastStepTokens = compressed.data.tokensAfter;
    await workspace.refresh();
    return { type: "data-compression", id: `compression-${compressed.data.createdAt}`, data: compressed.data };
  };

  const beforeStep = async (step: StepContext): Promise<BeforeStepResult | undefined> => {
    await written;
    const result: BeforeStepResult = {};
    let inputTokens = inputTokensOf(step);
    // The first step decides on the state the reply opened with; later ones read it again (the person may edit).
    const state: ConversationState | null = step.stepIndex === 0 ? { settings, ...options.opened } : await readConversationState(conversationId);
    if (!state) return undefined;
    current = state.settings;
    let compressed = step.stepIndex === 0 && context.prelude.some((c) => c.type === "data-compression");
    if (compressionDue({ stepIndex: step.stepIndex, inputTokens, settings, contextWindow })) {
      const chunk = await compress(inputTokens);
      if (chunk) {
        result.history = summaryModelMessages(compression).concat(modelMessagesOf(tail, convertOptionsFor(settings)));
        result.chunks = [chunk];
        inputTokens = lastStepTokens;
        compressed = true;
        // The compression froze the workspace anew: its status is read again.
        state.workspace = undefined;
      }
    }
    const known = knownOf({ tail, reply: step.reply, settings, noticed: state.agentState.taskEditsNoticed });
    const { step: stepState, news } = await readNews({ conversationId, state, known, compressed, workspace, mcp: options.mcpChanges });
    const decision = decideStep({
      stepIndex: step.stepIndex,
      replyId: step.reply.id,
      now: now(),
      newId: generateId,
      settings,
      contextWindow,
      inputTokens,
      firstCallInputTokens: context.usage.inputTokens,
      compressed,
      known,
      state: { ...stepState, ...(step.stepIndex === 0 && settings.injection.timestamps ? { sincePersonsPrevious: personsPause(history) } : {}) },
      strategy,
      prices,
      measured: () => cacheAfterFirstCall(history),
      neutralize: neutralizeHintTags,
      hintMaxChars: HINT_MAX_CHARS,
    });
    strategy = decision.strategy;
    endsWithReplace = decision.endsWithReplace;
    if (decision.chunks.length) result.chunks = [...(result.chunks ?? []), ...decision.chunks];
    if (decision.quiet.length) result.quiet = decision.quiet;
    // On the next turn of the event loop, while the model call is sent (no call needs it; the next step waits for it).
    written = nextTurn().then(() => writeStep({ conversationId, patch: decision.patch, news, workspace, mcp: options.mcpChanges }));
    written.catch(() => {}); // reported where it is awaited (the next step, the reply's end), never unhandled
    return result;
  };

  return {
    beforeStep,
    /** Resolves when what the steps stored is written (throws what writing it threw). */
    written: () => written,
    /** The reply's last replace status, superseded as the reply ends (apply it to the settled reply and stream it). */
    closeStatus: (): { chunk: HintChunk; quiet: boolean } | undefined => {
      const open = strategy.open;
      strategy = { ...strategy, open: undefined };
      return open ? { chunk: { ...open.chunk, data: { ...open.chunk.data, superseded: true } }, quiet: open.quiet } : undefined;
    },
    /** Whether the call being made ends with a replace status (for the cache-break detector). */
    endsWithReplace: () => endsWithReplace,
    /** The model context's compression as it stands now (a later step may have compressed it). */
    compression: () => compression,
    /** The settings the last step read: its call's system prompt is built from them. */
    settings: () => current,
    recordStep: (inputTokens: number, outputTokens: number) => {
      lastStepTokens = inputTokens + outputTokens;
      reported = true;
    },
  };
}

/** With timestamps on: how long before the person's message (the history's last) their previous one came (ms). */
export function personsPause(history: readonly ChatMessage[]): number | undefined {
  const person = history.at(-1);
  if (person?.role !== "user") return undefined;
  for (let i = history.length - 2; i >= 0; i--) {
    const previous = history[i]!;
    if (previous.role !== "user") continue;
    const elapsed = Date.parse(person.metadata?.createdAt ?? "") - Date.parse(previous.metadata?.createdAt ?? "");
    return Number.isFinite(elapsed) && elapsed >= 0 ? elapsed : undefined;
  }
  return undefined;
}

/**
 * Tokens of the reply's last step that the next call sends on top of the last call's reported input and output: the
 * tool results (and hints) after its step start, or everything after it when the provider reported nothing. Only
 * the last step's parts are converted and counted, never the history.
 */
export function tokensOfLastStep(reply: ChatMessage, outputReported: boolean, convert?: ConvertOptions): number {
  const start = reply.parts.findLastIndex((p) => p.type === "step-start");
  if (start < 0) return 0;
  const added = toModelMessages([{ ...reply, parts: reply.parts.slice(start + 1) }], convert);
  return countModelMessageTokens(outputReported ? added.filter((m) => m.role !== "assistant") : added);
}

/** Marks the hint `id` in a settled reply's parts superseded (the reply's last replace status, as the reply ends). */
export function markSuperseded(reply: ChatMessage, id: string): void {
  for (const part of reply.parts) {
    if (part.type === "data-hint" && part.id === id) part.data = { ...(part.data as HintData), superseded: true };
  }
}
