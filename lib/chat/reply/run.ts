// Runs one reply into the UI message stream while folding it into the stored assistant message: prepared (prepare.ts),
// driven step by step by the reply loop (each step read → decide → write, steps.ts), saved as it goes and when it
// settles. Nothing is written to the reply row before the turn's own rows are committed.
import type { UIMessageStreamWriter } from "ai";
import { continueHintChunk, replayChunks } from "../../agent/continue-reply.ts";
import { type ReplyOptions, runReply } from "../../agent/reply-loop.ts";
import { samplingOptions } from "../../agent/settings.ts";
import { wordsFor } from "../../operator-words.ts";
import { DEMO_ATTEMPT_OPTIONS, DEMO_MODEL_ID } from "../../ai/demo-model-id.ts";
import { anthropicCacheTtl, cacheTtlMs } from "../../ai/model-families.ts";
import { promptCacheOptions } from "../../ai/prompt-cache-key.ts";
import { replyTokenCeiling } from "../../ai/providers/choice.ts";
import { repairToolInput, unknownToolError } from "../tools/index.ts";
import type { ChatChunk, ChatMessage } from "../../chat-message.ts";
import { TAKEN_OVER_REASON } from "../../agent/resume-point.ts";
import { now as clockNow } from "../../clock.ts";
import { updateMessage } from "../../db/messages.ts";
import { envNumber, maxReplyChars } from "../../env-number.ts";
import { logFailure } from "../../log/logger.ts";
import { type ReplyTrace, traceHints, traceReply, traceToolCall } from "../../log/tracing.ts";
import { recordCacheBreak } from "../agent-state.ts";
import { waitForApprovals } from "../approvals.ts";
import {
  breakpointsFor,
  cacheBreakObserver,
  cacheFigures,
  conversationCallTotals,
  toolsKey,
} from "../cache-accounting.ts";
import { convertOptionsFor } from "../model-messages.ts";
import { promptSourceOf } from "../system-prompt.ts";
import { fixedPartFor } from "../fixed-part.ts";
import type { ReplyContext, ReplyPorts } from "./context.ts";
import { maxStepsOf, type PreparedReply, prepareReply } from "./prepare.ts";
import type { LoopParts, RunState } from "./loop-parts.ts";
import { plausibleUsage } from "./plausible-usage.ts";
import { readOnlyTools } from "../tools/read-only.ts";
import { replyReport } from "./report.ts";
import { settleFailedReply, settleReply } from "./settle.ts";

/** The reply loop's options: the model, its prompt and tools, the step, and what each call and step records. */
function loopOptions(parts: LoopParts): ReplyOptions {
  const { reply, ports, prepared, run, emit } = parts;
  const { replyId } = reply;
  const { context, steps } = prepared;
  const modelWindow = reply.model.info.contextWindow;
  return {
    model: reply.model.model,
    // The system prompt, assembled before every model call from the settings its step read (so an edit made mid-reply
    // applies on the next step) and from the frozen workspace, which a compression during the reply refreshes. What it
    // was assembled from tells a changed prompt apart from the person's edit.
    instructions: () => {
      const current = steps.settings();
      run.promptSource = promptSourceOf(current, modelWindow);
      return fixedPartFor(current, reply.workspace.frozen(), modelWindow, {
        agent: ports.child?.agent,
        spawns: reply.spawns,
        only: ports.child?.tools,
      }).prompt.text;
    },
    ...toolOptions(parts),
    history: context.modelMessages,
    prelude: preludeOf(reply, prepared, run),
    ...(reply.continued ? { seed: reply.continued.parts } : {}),
    convert: convertOptionsFor(reply.settings),
    now: clockNow,
    replyId,
    abortSignal: reply.abortSignal,
    maxRetries: Math.floor(envNumber("HINTLINE_MAX_RETRIES", 2)),
    retryBaseMs: envNumber("HINTLINE_RETRY_BASE_MS", 1000),
    idleTimeoutMs: envNumber("HINTLINE_PROVIDER_TIMEOUT_MS", 60_000) || 60_000,
    ...samplingOptions(reply.settings, replyTokenCeiling(reply.model.info.id)),
    errorWords: (message) => wordsFor(message, reply.operatorWords),
    // OpenAI keys its prompt cache by the conversation (a child: its own). The demo model words a regenerated reply
    // anew, by attempt (same attempt, same words).
    providerOptions: {
      ...promptCacheOptions(reply.conversationId),
      ...(reply.attempt > 0 && reply.model.info.id === DEMO_MODEL_ID
        ? { [DEMO_ATTEMPT_OPTIONS]: { attempt: reply.attempt } }
        : {}),
    },
    maxReplyChars: maxReplyChars(),
    maxSteps: maxStepsOf(ports),
    emit,
    beforeStep: steps.beforeStep,
    // Anthropic caches only at marked breakpoints (lib/agent/cache-breakpoints.ts); a replace status goes away.
    markCall:
      reply.model.info.provider === "anthropic"
        ? (instructions, messages) =>
            breakpointsFor(reply.conversationId).mark(instructions, messages, {
              lastKept: steps.endsWithReplace() ? messages.length - 2 : undefined,
              ttl: anthropicCacheTtl(),
            })
        : undefined,
    // A crash (even SIGKILL) loses at most a second of the reply; the next load marks it incomplete.
    checkpoint: {
      everyMs: 1000,
      save: saverOf(reply),
      readOnly: readOnlyTools(prepared.mcp.list),
      onError: logFailure("a reply checkpoint failed; the next one writes it again", {
        conversationId: reply.conversationId,
        replyId,
      }),
    },
    onModelCall: modelCallRecorder(parts),
    onStepEnd: stepEndRecorder(parts),
  };
}

/**
 * What opens the reply before its first step: the context's own chunks (a compression), then for Continue the one
 * reminder to go on (lib/agent/continue-reply.ts), for a resume the note of where it went on (the model is told
 * nothing: its input extends the last finished call's).
 */
function preludeOf(reply: ReplyContext, prepared: PreparedReply, run: RunState): ChatChunk[] {
  const { prelude } = prepared.context;
  if (reply.resumed) {
    const id = `resumed-${reply.replyId}-${reply.continued?.metadata?.resumes?.length ?? 1}`;
    return [...prelude, { type: "data-resumed", id, data: reply.resumed }];
  }
  if (!reply.continued) return prelude;
  const reminder = continueHintChunk(reply.replyId, run.callsBefore + run.calls.length + 1, clockNow());
  traceHints([reminder]);
  return [...prelude, reminder];
}

/** Saves the reply's parts once the turn's own rows are committed. */
function saverOf(reply: ReplyContext) {
  return async (message: ChatMessage) => {
    await reply.committed;
    // Another instance took the run over: the row is its to write.
    if (reply.abortSignal.reason === TAKEN_OVER_REASON) return;
    await updateMessage({
      conversationId: reply.conversationId,
      id: reply.replyId,
      parts: message.parts,
      onlyWhileStreaming: true,
    });
  };
}

/** The tools, how a call is repaired or refused, and how an MCP call that needs the person waits for their answer. */
function toolOptions({
  reply,
  prepared,
}: LoopParts): Pick<
  ReplyOptions,
  "tools" | "repairToolCall" | "unrunToolError" | "toolApproval" | "awaitApprovals" | "runApproved"
> {
  const { mcp, tools, nextCallNumber, ancestors } = prepared;
  return {
    tools,
    repairToolCall: repairToolInput,
    unrunToolError: unknownToolError(nextCallNumber, Object.keys(tools)),
    // The answer is stored so any tab or instance can give it.
    toolApproval: ({ toolName }) => mcp.approvalFor(toolName),
    awaitApprovals: async (pending) => {
      const answers = await waitForApprovals({
        conversationId: reply.conversationId,
        replyId: reply.replyId,
        pending,
        signal: reply.abortSignal,
        committed: reply.committed,
        nextCallNumber,
        ancestors,
      });
      for (const answer of answers)
        if (answer.remember) mcp.remember(pending.find((p) => p.toolCallId === answer.toolCallId)?.toolName ?? "");
      return answers;
    },
    runApproved: traceToolCall,
  };
}

/** After every model call: its figures (when they can be true), and whether the provider's cache broke. */
function modelCallRecorder({ reply, prepared, run, report }: LoopParts): NonNullable<ReplyOptions["onModelCall"]> {
  const { conversationId, settings, committed } = reply;
  const { mcp, tools, steps } = prepared;
  const toolDefinitions = toolsKey(tools);
  const cacheBreaks = cacheBreakObserver(conversationId);
  const ttlMs = cacheTtlMs(reply.model.info.provider);
  return async ({ stepIndex, instructions, messages, history: stable, usage: reported, startedAt }) => {
    run.calls.push(plausibleUsage(reported, reply.contextWindow) ?? {});
    report.call(run.calls.at(-1)!);
    const found = await cacheBreaks.observe(
      run.callsBefore + run.calls.length,
      {
        model: reply.model.info.id,
        system: instructions,
        tools: toolDefinitions,
        toolsSource: String(mcp.revision),
        messages,
        stable,
        promptSource: run.promptSource,
        inputSettings: settings.injection.timestamps ? `timestamps ${settings.injection.timezone}` : "",
        compression: steps.compression()?.summary ?? "",
        branch: String(reply.opened.agentState.branchEpoch ?? 0),
        retry: reply.retry && stepIndex === 0,
        replaceStatusAt: steps.endsWithReplace() ? messages.length - 1 : undefined,
        at: startedAt,
        ...(ttlMs === undefined ? {} : { cacheTtlMs: ttlMs }),
      },
      committed,
      clockNow(),
    );
    if (found) {
      await committed;
      await recordCacheBreak(conversationId, found);
    }
  };
}

/** After every step: the meter moves, and a step the reply goes on from is saved (and told to a parent). */
function stepEndRecorder({ reply, ports, prepared, run, emit }: LoopParts): NonNullable<ReplyOptions["onStepEnd"]> {
  const { context, steps } = prepared;
  const save = saverOf(reply);
  return async ({ reply: message, usage: reported, final }) => {
    const usage = plausibleUsage(reported, reply.contextWindow);
    if (usage) steps.recordStep(usage.inputTokens, usage.outputTokens);
    // The meter moves during the reply: the next input holds the reply so far.
    const figure = context.usageWith(message, steps.compression());
    emit({
      type: "data-context-usage",
      id: "usage",
      data: { ...figure, cache: cacheFigures(reply.history, run.calls, reply.model.info.id) },
      transient: true,
    });
    // A step that ends the reply is saved once, with its status, right after.
    if (final) return;
    await save(message);
    if (ports.child?.onProgress) {
      await Promise.resolve(ports.child.onProgress({ reply: message, calls: run.calls })).catch(
        logFailure("recording a subagent's progress failed", { conversationId: reply.conversationId }),
      );
    }
  };
}

export function runReplyInto(
  reply: ReplyContext,
  ports: ReplyPorts,
  writer: UIMessageStreamWriter<ChatMessage>,
): Promise<void> {
  const { conversationId, replyId } = reply;
  const { child } = ports;
  const info = {
    conversationId,
    replyId,
    agent: child?.agent.id,
    parent: child?.traceparent,
    resumed: !!reply.resumed,
  };
  return traceReply(info, (trace) => runTracedReply(reply, ports, writer, trace));
}

async function runTracedReply(
  reply: ReplyContext,
  ports: ReplyPorts,
  writer: UIMessageStreamWriter<ChatMessage>,
  trace: ReplyTrace,
): Promise<void> {
  const { conversationId, replyId } = reply;
  const modelId = reply.model.info.id;
  writer.write({ type: "start", messageId: replyId, messageMetadata: { model: modelId } });
  const report = replyReport({ conversationId, replyId, model: modelId });
  const emit = (chunk: ChatChunk) => {
    report.chunk(chunk.type);
    try {
      writer.write(chunk);
    } catch {
      // The client went away; the reply is still folded and persisted.
    }
  };
  // Continue: the reply so far first, so that whoever follows this stream sees the whole message.
  for (const chunk of reply.continued ? replayChunks(reply.continued.parts) : []) emit(chunk);
  const prepared = await prepareReply(reply, ports, emit);
  emit({
    type: "data-context-usage",
    id: "usage",
    data: { ...prepared.context.usage, cache: cacheFigures(reply.history) },
    transient: true,
  });
  // Every model call of the reply, in order, and where the conversation's numbering of calls continues.
  const run: RunState = {
    calls: [...(reply.continued?.metadata?.usage ?? [])],
    callsBefore: conversationCallTotals(reply.history).calls,
    promptSource: promptSourceOf(reply.settings, reply.model.info.contextWindow),
  };
  const parts: LoopParts = { reply, ports, prepared, run, emit, report };
  try {
    const outcome = await runReply(loopOptions(parts));
    trace.outcome(outcome.status, outcome.steps);
    await settleReply(parts, outcome, writer);
  } catch (error) {
    await settleFailedReply(parts, error);
    throw error;
  } finally {
    await prepared.mcp.close();
  }
}
