// Before every model call of a reply: read → decide → write. The step reads the conversation's state (the reply's
// first step uses what the reply read as it opened), folds what the next call's input already tells the agent, asks
// the one decision (lib/agent/step-decision.ts) — compress first, then which hints to append — and stores what it
// changed while the model call starts. A compression is the one effect inside the step, between the decision's two
// questions.
import { generateId, type LanguageModel } from "ai";
import { pauseSinceLastReply } from "../../agent/hints/decide-injection.ts";
import { neutralizeHintTags } from "../../agent/hints/neutralize-tags.ts";
import { HINT_MAX_CHARS } from "../../agent/hints/render-hint.ts";
import { cachedPriceRatio } from "../../agent/injection-strategy.ts";
import type { ConversationMode } from "../../agent/plan-mode.ts";
import type { BeforeStepResult, StepContext } from "../../agent/reply-loop.ts";
import type { Settings } from "../../agent/settings.ts";
import {
  compressionDue,
  decideStep,
  type HintChunk,
  startStrategy,
  type StepInput,
  type StrategyState,
} from "../../agent/step-decision.ts";
import { cacheWriteRatio, priceFor } from "../../ai/prices.ts";
import type { ChatMessage, HintData } from "../../chat-message.ts";
import { now as clockNow } from "../../clock.ts";
import { traceHints } from "../../log/tracing.ts";
import type { AgentState } from "../agent-state.ts";
import { cacheAfterFirstCall } from "../cache-accounting.ts";
import type { McpChangeTracker } from "../mcp-tool-changes.ts";
import type { PreparedContext } from "../prepare-context.ts";
import type { WorkspaceTracker } from "../workspace-view.ts";
import { nextTurn } from "../yielding.ts";
import { steersSaved, takeSteers } from "../queue-delivery.ts";
import { knownOf } from "./known.ts";
import { createModelContext } from "./model-context.ts";
import { type ConversationState, readConversationState, readNews } from "./read-step.ts";
import { writeStep } from "./write-step.ts";

export type ReplyStepsOptions = {
  conversationId: string;
  /** The conversation's workspace (its state sources are read before each step). */
  workspaceId: string;
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
  /** A subagent's reply (its Mode reminders are a child's). */
  child?: boolean;
  /** A reply going on after its process stopped: its first step reads the state anew (steers queued meanwhile). */
  resumed?: boolean;
  /** The model calls the reply may make (its last is told to answer without tools). */
  maxSteps: number;
  now?: () => Date;
};

/** What the steps of one reply share: the model context, what every decision takes as it is, and what they carry. */
type StepsRun = {
  options: ReplyStepsOptions;
  model: ReturnType<typeof createModelContext>;
  fixed: Pick<
    StepInput,
    | "newId"
    | "settings"
    | "contextWindow"
    | "firstCallInputTokens"
    | "prices"
    | "measured"
    | "neutralize"
    | "hintMaxChars"
  >;
  strategy: StrategyState;
  endsWithReplace: boolean;
  /** The settings the last step read (the system prompt of its call is built from them). */
  current: Settings;
  /** What the last step stores, written while its model call starts; the next step (and the reply's end) waits. */
  written?: Promise<void>;
  /** A step took the person's steers: they are delivered once the step's end has saved the reply. */
  steered: boolean;
};

export function createReplySteps(options: ReplyStepsOptions) {
  const { settings, contextWindow, history, context, workspace } = options;
  const stored = options.opened.agentState;
  const price = priceFor(options.modelId);
  const run: StepsRun = {
    options,
    model: createModelContext({ ...options, onCompressed: () => workspace.refresh() }),
    fixed: {
      newId: generateId,
      settings,
      contextWindow,
      firstCallInputTokens: context.usage.inputTokens,
      prices: { cachedRatio: cachedPriceRatio(price), writeRatio: cacheWriteRatio(price) },
      measured: () => cacheAfterFirstCall(history),
      neutralize: neutralizeHintTags,
      hintMaxChars: HINT_MAX_CHARS,
    },
    strategy: startStrategy({
      figures: stored.strategy,
      lastUpdate: stored.strategyUpdate,
      previous: stored.strategyDecision?.chosen,
    }),
    endsWithReplace: false,
    current: settings,
    steered: false,
  };
  return {
    beforeStep: (step: StepContext) => runStep(run, step),
    /** Resolves when what the steps stored is written (throws what writing it threw). */
    written: () => run.written,
    /** The reply's last replace status, superseded as the reply ends (apply it to the settled reply and stream it). */
    closeStatus: (): { chunk: HintChunk; quiet: boolean } | undefined => {
      const open = run.strategy.open;
      run.strategy = { ...run.strategy, open: undefined };
      return open
        ? { chunk: { ...open.chunk, data: { ...open.chunk.data, superseded: true } }, quiet: open.quiet }
        : undefined;
    },
    /** Whether the call being made ends with a replace status (for the cache-break detector). */
    endsWithReplace: () => run.endsWithReplace,
    /** The model context's compression as it stands now (a later step may have compressed it). */
    compression: run.model.compression,
    /** The settings the last step read: its call's system prompt is built from them. */
    settings: () => run.current,
    recordStep: run.model.recordStep,
  };
}

/** One step: read the state, compress if due, read what is new, decide, and start writing what the step changed. */
async function runStep(run: StepsRun, step: StepContext): Promise<BeforeStepResult | undefined> {
  const { options, model } = run;
  const { conversationId, settings, contextWindow } = options;
  await run.written;
  // The first step decides on the state the reply opened with; later ones read it again (the person may edit), as
  // does a resumed reply's first: it goes on after a step's tool results, where the person's steers enter.
  const opened: ConversationState = { settings, ...options.opened };
  const [state] = await Promise.all([
    step.stepIndex === 0 && !options.resumed ? opened : readConversationState(conversationId),
    // The previous step's end saved the reply with the steers it took.
    run.steered ? steersSaved(conversationId, step.reply.id) : undefined,
  ]);
  run.steered = false;
  if (!state) return undefined;
  run.current = state.settings;
  const result: BeforeStepResult = {};
  let inputTokens = model.inputTokens(step);
  let compressed = step.stepIndex === 0 && options.context.prelude.some((c) => c.type === "data-compression");
  const left = model.compression()?.left;
  const compression = compressionDue({ stepIndex: step.stepIndex, inputTokens, settings, contextWindow, left })
    ? await model.compress(inputTokens, step.reply)
    : undefined;
  if (compression) {
    Object.assign(result, { history: compression.history, chunks: [compression.chunk] });
    ({ inputTokens } = compression);
    compressed = true;
    // The compression froze the workspace anew: its status is read again.
    state.workspace = undefined;
  }
  const known = knownOf({
    tail: model.tail(),
    reply: step.reply,
    settings,
    noticed: state.agentState.taskEditsNoticed,
  });
  const child = options.child === true;
  // The person's steers enter after the previous step's tool results, before this step's hints (a child takes none).
  const steers =
    !child && state.steers?.length
      ? await takeSteers(conversationId, step.reply.id, state.steers, (options.now ?? clockNow)())
      : [];
  if (steers.length) {
    result.chunks = [...(result.chunks ?? []), ...steers];
    run.steered = true;
  }
  const { step: stepState, news } = await readNews({
    conversationId,
    workspaceId: options.workspaceId,
    state,
    known,
    compressed,
    workspace: options.workspace,
    mcp: options.mcpChanges,
    hints: settings.injection.injectRuntimeState,
    child,
    // After a compression, what ended before the first kept message was summarised with the rest.
    since: model.compression() ? model.tail()[0]?.metadata?.createdAt : undefined,
  });
  const pause =
    step.stepIndex === 0 && settings.injection.timestamps
      ? { sinceLastReply: pauseSinceLastReply(options.history) }
      : {};
  const decision = decideStep({
    ...run.fixed,
    child,
    stepIndex: step.stepIndex,
    replyId: step.reply.id,
    now: (options.now ?? clockNow)(),
    inputTokens,
    compressed,
    known,
    state: { ...stepState, ...pause },
    strategy: run.strategy,
    ...(step.last ? { stepLimit: options.maxSteps } : {}),
  });
  run.strategy = decision.strategy;
  run.endsWithReplace = decision.endsWithReplace;
  if (decision.chunks.length) result.chunks = [...(result.chunks ?? []), ...decision.chunks];
  if (decision.quiet.length) result.quiet = decision.quiet;
  traceHints([...decision.chunks, ...decision.quiet]);
  // On the next turn of the event loop, while the model call is sent (no call needs it; the next step waits for it).
  run.written = nextTurn().then(() =>
    writeStep({ conversationId, patch: decision.patch, news, workspace: options.workspace, mcp: options.mcpChanges }),
  );
  run.written.catch(() => {}); // reported where it is awaited (the next step, the reply's end), never unhandled
  return result;
}

/** Marks the hint `id` in a settled reply's parts superseded (the reply's last replace status, as the reply ends). */
export function markSuperseded(reply: ChatMessage, id: string): void {
  for (const part of reply.parts) {
    if (part.type === "data-hint" && part.id === id) part.data = { ...(part.data as HintData), superseded: true };
  }
}
