// Before every model call of a reply: first compression is checked (the reply's first call was handled when the
// context was prepared; later calls compress when the last step's input and output, plus the tool results added
// since, reached the trigger), then the injection decides on a hint. Both land in the reply at the step they
// preceded.
import type { LanguageModel } from "ai";
import { shouldCompress } from "../agent/compression.ts";
import { countModelMessageTokens } from "../agent/context-usage.ts";
import type { BeforeStepResult, StepContext } from "../agent/reply-loop.ts";
import type { Settings } from "../agent/settings.ts";
import { type ConvertOptions, toModelMessages } from "../agent/to-model-messages.ts";
import type { ChatMessage, Task } from "../chat-message.ts";
import { listTasks } from "../db/tasks.ts";
import { type AgentState, patchAgentState } from "./agent-state.ts";
import { type CompressionState, compressContext, summaryModelMessages, tailStart } from "./compression.ts";
import { historyIndexOf } from "./history-fold.ts";
import { convertOptionsFor, modelMessagesOf } from "./model-messages.ts";
import { modeHintChunk, readConversationState } from "./plan.ts";
import type { ConversationMode } from "../agent/plan-mode.ts";
import type { McpChangeTracker } from "./mcp-tool-changes.ts";
import type { WorkspaceTracker } from "./workspace-view.ts";
import type { PreparedContext } from "./prepare-context.ts";
import { cacheAfterFirstCall } from "./cache-accounting.ts";
import { createHintStep, toldSoFar } from "./runtime-hints.ts";
import { createStatusStrategy } from "./status-strategy.ts";
import { subagentsHint } from "./subagent-hints.ts";
import { nextTurn } from "./yielding.ts";

// Where a message is in a kept tail (kept per conversation, extended turn by turn).
const tailIndexOf = historyIndexOf();

export function createStepPreparation({
  conversationId,
  model,
  modelId,
  settings,
  contextWindow,
  history,
  context,
  agentState,
  mode: modeAtStart,
  workspace,
  mcpChanges,
  tasksAtStart,
}: {
  conversationId: string;
  model: LanguageModel;
  modelId: string;
  settings: Settings;
  contextWindow: number;
  history: ChatMessage[];
  context: PreparedContext;
  agentState: AgentState;
  /** The conversation's mode as the reply started. */
  mode: ConversationMode;
  /** The frozen workspace (refreshed at a compression) and the Workspace hint. */
  workspace: WorkspaceTracker;
  /** The Workspace hint about MCP tools that changed under the conversation's fixed list. */
  mcpChanges?: McpChangeTracker;
  /** The task list as the reply started. */
  tasksAtStart: Task[];
}) {
  let compression: CompressionState | undefined = context.compression;
  let tail = context.tail;
  /** The last call's input plus its output, as the provider reported them (or as estimated when it did not). */
  let lastStepTokens = context.usage.inputTokens;
  let reported = false;
  let edited = false;
  let taskEdits = agentState.taskEdits ?? 0;
  let tasksRead: { stepIndex: number; tasks: Promise<Task[]> } | undefined;
  const hintStep = createHintStep({
    settings,
    history: () => tail,
    contextWindow,
    firstCallInputTokens: context.usage.inputTokens,
    tasksEditedByPerson: () => edited,
    taskEdits: () => taskEdits,
    tasks: (stepIndex) => {
      // Asked twice a step (the full status and the rule's hint): read once.
      if (stepIndex === 0) return Promise.resolve(tasksAtStart);
      if (tasksRead?.stepIndex !== stepIndex) tasksRead = { stepIndex, tasks: listTasks({ conversationId }) };
      return tasksRead.tasks;
    },
  });
  const strategy = createStatusStrategy({
    settings,
    modelId,
    figures: agentState.strategy,
    lastUpdate: agentState.strategyUpdate,
    previous: agentState.strategyDecision?.chosen,
    measured: () => cacheAfterFirstCall(history),
  });

  // The state a step stores is written while its model call starts; the next step (and the reply's end) waits for it.
  let written: Promise<void> | undefined;
  const beforeStep = async (step: StepContext): Promise<BeforeStepResult | undefined> => {
    await written;
    const result: BeforeStepResult = {};
    let inputTokens = context.usage.inputTokens;
    // The first step uses the state this request read; later steps read it again (the person may edit meanwhile).
    const state = step.stepIndex === 0 ? { agentState, mode: modeAtStart } : await readConversationState(conversationId);
    let justCompressed = step.stepIndex === 0 && !!context.prelude?.some((c) => c.type === "data-compression");
    if (step.stepIndex > 0) {
      // What the last step added that its reported figures do not cover: tool results (and its output, unreported).
      inputTokens = lastStepTokens + tokensOfLastStep(step.reply, reported, convertOptionsFor(settings));
      if (!reported) lastStepTokens = inputTokens;
      reported = false;
      if (shouldCompress(inputTokens, settings.context.triggerRatio, contextWindow)) {
        const compressed = await compressContext({ conversationId, model, settings, contextWindow, history, state: compression, tokensBefore: inputTokens });
        if (compressed) {
          compression = compressed.state;
          tail = history.slice(tailStart(history, compression));
          result.history = summaryModelMessages(compression).concat(modelMessagesOf(tail, convertOptionsFor(settings)));
          result.chunks = [{ type: "data-compression", id: `compression-${compressed.data.createdAt}`, data: compressed.data }];
          lastStepTokens = compressed.data.tokensAfter;
          inputTokens = compressed.data.tokensAfter;
          await workspace.refresh();
        }
        justCompressed = !!result.history;
      }
    }
    // What the hints in this call's input told the agent (the kept tail and the reply so far): a hint whose reply was
    // regenerated, retried, edited away or switched out of is not there, so it is told again.
    const told = toldSoFar(tail, step.reply, settings.injection.injectionSource);
    taskEdits = state.agentState.taskEdits ?? 0;
    // An edit a step went through without a task hint (no task open then, or hints off) was news for that step only,
    // while that step's reply is in the input.
    const noticed = state.agentState.taskEditsNoticed;
    const noticedHere = noticed && (noticed.replyId === step.reply.id || tailIndexOf(tail, noticed.replyId) >= 0) ? noticed.count : 0;
    edited = taskEdits > Math.max(told.taskEdits, noticedHere);
    // A switch of mode is announced once, on the next step, before the runtime hint.
    const modeHint = await modeHintChunk({ conversationId, mode: state.mode, toldMode: told.mode, compressed: justCompressed });
    if (modeHint) result.chunks = [...(result.chunks ?? []), modeHint];
    // Then what changed in the workspace since the agent last heard (the system prompt keeps its frozen copy).
    const workspaceHint = await workspace.beforeStep(told.workspaceRevision);
    if (workspaceHint) result.chunks = [...(result.chunks ?? []), workspaceHint];
    const mcpHints = (await mcpChanges?.beforeStep(workspace.revision())) ?? [];
    if (mcpHints.length) result.chunks = [...(result.chunks ?? []), ...mcpHints];
    // Then the answers of subagents that finished in the background (each told once).
    const subagents = await subagentsHint(conversationId);
    if (subagents) result.chunks = [...(result.chunks ?? []), subagents];
    // The status the previous call of this reply ended with under replace is gone from this call.
    const superseded = strategy.supersede();
    if (superseded) result[superseded.quiet ? "quiet" : "chunks"] = [...(result[superseded.quiet ? "quiet" : "chunks"] ?? []), superseded.chunk];
    const sincePersonsPrevious = step.stepIndex === 0 && settings.injection.timestamps ? personsPause(history) : undefined;
    const hint = await hintForStep(step, inputTokens, sincePersonsPrevious, justCompressed);
    if (hint?.chunks) result.chunks = [...(result.chunks ?? []), ...hint.chunks];
    if (hint?.quiet) result.quiet = [...(result.quiet ?? []), ...hint.quiet];
    const patch: Partial<AgentState> = {};
    const toldEdits = [...(hint?.chunks ?? []), ...(hint?.quiet ?? [])].some((c) => c.type === "data-hint" && c.data.taskEdits !== undefined);
    if (edited && !toldEdits) patch.taskEditsNoticed = { count: taskEdits, replyId: step.reply.id };
    if (settings.injection.injectRuntimeState) {
      patch.strategy = strategy.figures();
      patch.strategyDecision = strategy.decision();
      patch.strategyUpdate = strategy.lastUpdate();
    }
    if (Object.keys(patch).length) {
      // On the next turn of the event loop, while the model call is sent (no call needs it; the next step waits for it).
      written = nextTurn().then(() => patchAgentState(conversationId, patch));
      written.catch(() => {}); // reported where it is awaited (the next step, the reply's end), never unhandled
    }
    return result;
  };

  /**
   * The step's hint: under replace (configured, or chosen by auto) the full status, marked to be replaced; under
   * append what the rules find stale. The full status is measured either way (S of the cost model).
   */
  async function hintForStep(step: StepContext, inputTokens: number, sincePersonsPrevious: number | undefined, compressed: boolean) {
    if (!settings.injection.injectRuntimeState) return undefined;
    const full = await hintStep.decide(step, { full: true, inputTokens, sincePersonsPrevious });
    // An update of the cost model: the state changed since the last one, by the rules append follows.
    const last = strategy.lastUpdate();
    const changed = !!full && (!last || (await hintStep.decide(step, { since: last, sincePersonsPrevious })) !== null);
    const update = full && changed ? { text: full.injection.text, ...full.counts } : undefined;
    const decision = strategy.decide(full?.injection.text ?? "", update);
    if (decision.chosen === "append") {
      // After a compression the append hint tells the new context size (a figure kept in the tail is out of date).
      const hint = await hintStep(step, { sincePersonsPrevious, compressed, inputTokens });
      const sent = hint?.chunks?.[0] ?? hint?.quiet?.[0];
      if (sent?.type === "data-hint") strategy.sentHint(sent.data.text);
      return hint;
    }
    if (!full) return undefined;
    const hint = hintStep.chunkOf(full, { full: true });
    const chunk = hint?.chunks?.[0] ?? hint?.quiet?.[0];
    if (chunk?.type === "data-hint") strategy.opened(chunk, !hint?.chunks);
    return hint;
  }

  return {
    beforeStep,
    /** Resolves when what the steps stored is written (throws what writing it threw). */
    written: () => written,
    /** The reply's last replace status, superseded as the reply ends (apply it to the settled reply and stream it). */
    closeStatus: () => strategy.supersede(),
    /** Whether the call being made ends with a replace status (for the cache-break detector). */
    endsWithReplace: () => strategy.endsWithReplace(),
    /** The model context's compression as it stands now (a later step may have compressed it). */
    compression: () => compression,
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
