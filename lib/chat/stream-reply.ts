// Streams one reply into the UI message stream while folding it into the stored assistant message: the context is
// prepared (compressed if due), every step gets its hint, tools run, and the reply is saved as it goes and when it
// settles. Nothing is written to the reply row before the turn's own rows are committed.
import type { LanguageModel, UIMessageStreamWriter } from "ai";
import type { ResolvedModel } from "../ai/providers/index.ts";
import { continueHintChunk, replayChunks } from "../agent/continue-reply.ts";
import { describeError } from "../agent/describe-error.ts";
import { runReply, type StepUsage } from "../agent/reply-loop.ts";
import type { Settings } from "../agent/settings.ts";
import { replyTokenCeiling } from "../ai/providers/choice.ts";
import { createTools, repairToolInput, unknownToolError } from "../ai/tools/index.ts";
import { createCallCounter, createRepeatCounter } from "../ai/tools/tool-context.ts";
import type { CallUsage, ChatChunk, ChatMessage, PlanData, Task, ToolProgressData } from "../chat-message.ts";
import { updateMessage } from "../db/messages.ts";
import { listTasks } from "../db/tasks.ts";
import { envNumber, maxReplyChars } from "../env-number.ts";
import type { ConversationMode } from "../agent/plan-mode.ts";
import { type AgentState, recordCacheBreak } from "./agent-state.ts";
import { breakpointsFor, cacheBreakObserver, cacheFigures, conversationCallTotals, toolsKey } from "./cache-accounting.ts";
import { waitForApprovals } from "./approvals.ts";
import { mcpToolTokensOf } from "./mcp-tool-tokens.ts";
import { openReplyMcp } from "./mcp-reply.ts";
import { conversationMode } from "./plan.ts";
import { precountTokens } from "./context-usage.ts";
import { convertOptionsFor } from "./model-messages.ts";
import { type PreparedContext, prepareContext } from "./prepare-context.ts";
import { createReplySteps, markSuperseded } from "./reply/steps.ts";
import { type PromptAgent, promptSourceOf, systemPromptFor } from "./system-prompt.ts";
import { ancestorIds, inheritedMode } from "./subagent-mode.ts";
import { DEFAULT_CHILD_MCP_TOOLS } from "../agent/subagent-mcp.ts";
import { type SettledReply, type StartChildReply, subagentHost } from "./subagent-runs.ts";
import { titleAfterFirstReply } from "./titles.ts";
import { logFailure } from "../ops/logger.ts";
import { now as clockNow } from "../clock.ts";
import { replyReport } from "../ops/reply-report.ts";
import type { WorkspaceTracker } from "./workspace-view.ts";

export type ReplyJob = {
  conversationId: string;
  replyId: string;
  model: LanguageModel;
  modelId: string;
  /** The model's provider ("anthropic" gets cache breakpoints). */
  provider: string;
  /** The model of titles and summaries (HINTLINE_UTILITY_MODEL, else the conversation's). */
  utility: ResolvedModel;
  settings: Settings;
  contextWindow: number;
  agentState: AgentState;
  mode: ConversationMode;
  /** The model's own context window (the system prompt is assembled for it; `contextWindow` may override it). */
  modelWindow: number;
  /** The conversation's workspace (its memory, knowledge and skills are the tools'). */
  workspaceId?: string;
  /** The workspace as the system prompt holds it, and the Workspace hint when it changed. */
  workspace: WorkspaceTracker;
  /** The reply to the person's latest message is generated again. */
  retry?: boolean;
  /** Continue: the stored reply (the row `replyId`) that this one carries on; `history` is what precedes it. */
  continued?: ChatMessage;
  history: ChatMessage[];
  tasksAtStart: Task[];
  committed: Promise<void>;
  abortSignal: AbortSignal;
  /** A subagent's turn: the agent its prompt holds, the tools it may use, its parent, and who waits for its end. */
  agent?: PromptAgent;
  toolNames?: readonly string[];
  parentId?: string;
  onSettled?: (settled: SettledReply) => Promise<void> | void;
  /** A subagent's step ended (not its last): its calls so far, for the side panel's tokens and last tool. */
  onProgress?: (progress: { reply: ChatMessage; calls: CallUsage[] }) => Promise<void> | void;
  /** Starts a child's turn (AgentSpawn, AgentSend): lib/chat/start-reply.ts's startReply. */
  startChild?: StartChildReply;
};

/**
 * The step's token figures when they can be true: whole numbers from 0 up to a few times the context window (a call
 * cannot take or give more than its window; a figure past 4× it means the report is wrong, and the local count is
 * the better one), and no more cached input than input. Otherwise none: the meter and the hints then count locally,
 * and the call is recorded without figures.
 */
export function plausibleUsage(
  usage: StepUsage,
  contextWindow: number,
): { inputTokens: number; cachedInputTokens?: number; cacheWriteTokens?: number; outputTokens: number } | undefined {
  const ceiling = 4 * contextWindow;
  const ok = (n: number | undefined) => n === undefined || (Number.isSafeInteger(n) && n >= 0 && n <= ceiling);
  if (!usage.inputTokens || !ok(usage.inputTokens) || !ok(usage.outputTokens) || !ok(usage.cachedInputTokens) || !ok(usage.cacheWriteTokens)) return undefined;
  if ((usage.cachedInputTokens ?? 0) + (usage.cacheWriteTokens ?? 0) > usage.inputTokens) return undefined;
  return {
    inputTokens: usage.inputTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: usage.cachedInputTokens }),
    // Only where the provider reports writes (Anthropic); 0 is not a figure worth storing on every OpenAI call.
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    outputTokens: usage.outputTokens ?? 0,
  };
}

export async function streamReply(job: ReplyJob, writer: UIMessageStreamWriter<ChatMessage>): Promise<void> {
  const { conversationId, replyId, model, settings, contextWindow, agentState, history, committed } = job;
  writer.write({ type: "start", messageId: replyId, messageMetadata: { model: job.modelId } });
  const report = replyReport({ conversationId, replyId, model: job.modelId });
  const emit = (chunk: ChatChunk) => {
    report.chunk(chunk.type);
    try {
      writer.write(chunk);
    } catch {
      // The client went away; the reply is still folded and persisted.
    }
  };
  // Continue: the reply so far first, so that whoever follows this stream sees the whole message.
  for (const chunk of job.continued ? replayChunks(job.continued.parts) : []) emit(chunk);
  const saveParts = async (reply: ChatMessage) => {
    await committed;
    await updateMessage({ conversationId, id: replyId, parts: reply.parts });
  };
  await precountTokens(history);
  const system = () => systemPromptFor(settings, job.workspace.frozen(), contextWindow, job.agent).text;
  const nextCallNumber = createCallCounter(history);
  const toolContext = {
    conversationId,
    workspaceId: job.workspaceId,
    nextCallNumber,
    repeatCount: createRepeatCounter(),
    // The panel follows the agent's task edits live; the snapshot is transient (tasks live in the database).
    onTasksChanged: async () => emit({ type: "data-tasks", id: "tasks", data: await listTasks({ conversationId }), transient: true }),
    // Asked by a tool that writes, when it is called: the person may switch the mode mid-reply. A child of a planning
    // parent plans too.
    mode: () => (job.parentId ? inheritedMode(conversationId, job.parentId) : conversationMode(conversationId)),
    onPlanChanged: (plan: PlanData) => emit({ type: "data-plan", id: "plan", data: plan, transient: true }),
    // A running MCP call's progress, for its row (transient: one snapshot per call).
    onToolProgress: (progress: ToolProgressData) => emit({ type: "data-tool-progress", id: progress.toolCallId, data: progress, transient: true }),
    ...(job.startChild ? { subagents: subagentHost({ start: job.startChild, parentId: conversationId, workspaceId: job.workspaceId }) } : {}),
  };
  // The conversation's MCP tools follow Hintline's own, as fixed at its first call (lib/chat/mcp-reply.ts). A subagent
  // gets those its agent allows of its root conversation's list; a call of its that waits is shown and answered in
  // its parent (lib/chat/subagent-approvals.ts). The list is known before the context is measured, so that a first
  // reply measures (and compresses) with its MCP tools as every later one does.
  const ancestors = job.parentId ? await ancestorIds(job.parentId) : [];
  const inherit = ancestors.length ? { rootId: ancestors.at(-1)!, allowed: job.toolNames ?? DEFAULT_CHILD_MCP_TOOLS } : undefined;
  const openMcp = () => openReplyMcp({ conversationId, workspaceId: job.workspaceId, contextWindow, history, committed, ctx: toolContext, inherit });
  let mcp = await openMcp();
  let compressed = false;
  const onCompressed = () => {
    compressed = true;
    return job.workspace.refresh();
  };
  let context: PreparedContext;
  try {
    context = await prepareContext({ conversationId, model: job.utility.model, settings, contextWindow, system, history, agentState, mcpTools: mcpToolTokensOf(mcp.list), onCompressed });
  } catch (error) {
    await mcp.close();
    throw error;
  }
  // A compression marks a stored list stale: it is made again now (the cached prefix was rewritten anyway).
  if (compressed && mcp.stored) {
    await mcp.close();
    mcp = await openMcp();
  }
  emit({ type: "data-context-usage", id: "usage", data: { ...context.usage, cache: cacheFigures(history) }, transient: true });
  const tools = { ...createTools(toolContext, job.toolNames), ...mcp.tools };
  const steps = createReplySteps({
    conversationId,
    replyId,
    model: job.utility.model,
    modelId: job.modelId,
    settings,
    contextWindow,
    history,
    context,
    opened: { agentState, mode: job.mode, tasks: job.tasksAtStart },
    workspace: job.workspace,
    mcpChanges: mcp.changes,
  });
  // The system prompt, assembled before every model call from the settings its step read (so an edit made mid-reply
  // applies on the next step) and from the frozen workspace, which a compression during the reply refreshes. What it
  // was assembled from tells a changed prompt apart from the person's edit.
  let promptSource = promptSourceOf(settings, job.modelWindow);
  const instructions = () => {
    const current = steps.settings();
    promptSource = promptSourceOf(current, job.modelWindow);
    return systemPromptFor(current, job.workspace.frozen(), job.modelWindow, job.agent).text;
  };
  // Every model call of the reply, in order, and where the conversation's numbering of calls continues.
  const calls: CallUsage[] = [...(job.continued?.metadata?.usage ?? [])];
  const callsBefore = conversationCallTotals(history).calls;
  const toolDefinitions = toolsKey(tools);
  const cacheBreaks = cacheBreakObserver(conversationId);
  const metadataOf = (extra: object) => ({ model: job.modelId, ...(calls.length ? { usage: calls } : {}), ...extra });
  try {
    const outcome = await runReply({
      model,
      instructions,
      tools,
      repairToolCall: repairToolInput,
      unrunToolError: unknownToolError(nextCallNumber, Object.keys(tools)),
      // An MCP call that needs the person waits for their answer, stored so any tab or instance can give it.
      toolApproval: ({ toolName }) => mcp.approvalFor(toolName),
      awaitApprovals: async (pending) => {
        const answers = await waitForApprovals({ conversationId, replyId, pending, signal: job.abortSignal, committed, nextCallNumber, ancestors });
        for (const answer of answers) if (answer.remember) mcp.remember(pending.find((p) => p.toolCallId === answer.toolCallId)?.toolName ?? "");
        return answers;
      },
      history: context.modelMessages,
      // Continue: the reply so far, then the one reminder to go on (lib/agent/continue-reply.ts).
      prelude: job.continued ? [...context.prelude, continueHintChunk(replyId, callsBefore + calls.length + 1, clockNow())] : context.prelude,
      ...(job.continued ? { seed: job.continued.parts } : {}),
      convert: convertOptionsFor(settings),
      replyId,
      abortSignal: job.abortSignal,
      maxRetries: Math.floor(envNumber("HINTLINE_MAX_RETRIES", 2)),
      retryBaseMs: envNumber("HINTLINE_RETRY_BASE_MS", 1000),
      idleTimeoutMs: envNumber("HINTLINE_PROVIDER_TIMEOUT_MS", 60_000) || 60_000,
      maxOutputTokens: replyTokenCeiling(job.modelId),
      maxReplyChars: maxReplyChars(),
      emit,
      beforeStep: steps.beforeStep,
      // Anthropic caches only at marked breakpoints (lib/agent/cache-breakpoints.ts); a replace status goes away.
      markCall:
        job.provider === "anthropic"
          ? (instructions, messages) => breakpointsFor(conversationId).mark(instructions, messages, { lastKept: steps.endsWithReplace() ? messages.length - 2 : undefined })
          : undefined,
      // A crash (even SIGKILL) loses at most a second of the reply; the next load marks it incomplete.
      checkpoint: { everyMs: 1000, save: saveParts, onError: logFailure("a reply checkpoint failed; the next one writes it again", { conversationId, replyId }) },
      onModelCall: async ({ stepIndex, instructions, messages, history: stable, usage: reported }) => {
        calls.push(plausibleUsage(reported, contextWindow) ?? {});
        report.call(calls.at(-1)!);
        const found = await cacheBreaks.observe(callsBefore + calls.length, {
          model: job.modelId,
          system: instructions,
          tools: toolDefinitions,
          toolsSource: String(mcp.revision),
          messages,
          stable,
          promptSource,
          inputSettings: settings.injection.timestamps ? `timestamps ${settings.injection.timezone}` : "",
          compression: steps.compression()?.summary ?? "",
          branch: String(agentState.branchEpoch ?? 0),
          retry: job.retry === true && stepIndex === 0,
          replaceStatusAt: steps.endsWithReplace() ? messages.length - 1 : undefined,
        }, committed);
        if (found) {
          await committed;
          await recordCacheBreak(conversationId, found);
        }
      },
      onStepEnd: async ({ reply, usage: reported, final }) => {
        const usage = plausibleUsage(reported, contextWindow);
        if (usage) steps.recordStep(usage.inputTokens, usage.outputTokens);
        // The meter moves during the reply: the next input holds the reply so far.
        const figure = context.usageWith(reply, steps.compression());
        emit({ type: "data-context-usage", id: "usage", data: { ...figure, cache: cacheFigures(history, calls) }, transient: true });
        // A step that ends the reply is saved once, with its status, right after.
        if (!final) await saveParts(reply);
        if (!final && job.onProgress) await Promise.resolve(job.onProgress({ reply, calls })).catch(logFailure("recording a subagent's progress failed", { conversationId }));
      },
    });
    // The reply's last call is over: its replace status (if any) is not part of any later call.
    await Promise.all([steps.written(), job.workspace.stored()]);
    const closed = steps.closeStatus();
    if (closed) {
      markSuperseded(outcome.reply, closed.chunk.id ?? "");
      if (!closed.quiet) emit(closed.chunk);
    }
    await committed;
    const metadata = metadataOf(outcome.error ? { error: outcome.error } : {});
    await updateMessage({ conversationId, id: replyId, parts: outcome.reply.parts, metadata, status: outcome.status });
    if (!job.continued) await titleAfterFirstReply({ ...job, model: job.utility.model, modelId: job.utility.info.id, reply: outcome.reply, status: outcome.status });
    writer.write({ type: "message-metadata", messageMetadata: { ...metadata, status: outcome.status } });
    writer.write({ type: "finish" });
    report.end({ status: outcome.status, error: outcome.error, stopped: job.abortSignal.aborted, stopReason: job.abortSignal.reason });
    await job.onSettled?.({ status: outcome.status, reply: outcome.reply, error: outcome.error, stopped: job.abortSignal.aborted, calls });
  } catch (error) {
    report.end({ status: "error", error, stopped: false });
    await committed
      .then(() => updateMessage({ conversationId, id: replyId, metadata: metadataOf({ error: describeError(error) }), status: "error" }))
      .catch(logFailure("storing a failed reply's error failed", { conversationId, replyId }));
    await Promise.resolve(job.onSettled?.({ status: "error", error: describeError(error), stopped: job.abortSignal.aborted, calls })).catch(
      logFailure("settling a subagent's run failed", { conversationId, replyId }),
    );
    throw error;
  } finally {
    await mcp.close();
  }
}
