// Runs one reply into the UI message stream while folding it into the stored assistant message: prepared (prepare.ts),
// driven step by step by the reply loop (each step read → decide → write, steps.ts), saved as it goes and when it
// settles. Nothing is written to the reply row before the turn's own rows are committed.
import type { UIMessageStreamWriter } from "ai";
import { continueHintChunk, replayChunks } from "../../agent/continue-reply.ts";
import { describeError } from "../../agent/describe-error.ts";
import { type ReplyOptions, runReply, type StepUsage } from "../../agent/reply-loop.ts";
import { replyTokenCeiling } from "../../ai/providers/choice.ts";
import { repairToolInput, unknownToolError } from "../tools/index.ts";
import type { CallUsage, ChatChunk, ChatMessage } from "../../chat-message.ts";
import { now as clockNow } from "../../clock.ts";
import { updateMessage } from "../../db/messages.ts";
import { envNumber, maxReplyChars } from "../../env-number.ts";
import { logFailure } from "../../log/logger.ts";
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
import { promptSourceOf, systemPromptFor } from "../system-prompt.ts";
import { titleAfterFirstReply } from "../titles.ts";
import type { ReplyContext, ReplyPorts } from "./context.ts";
import { maxStepsOf, type PreparedReply, prepareReply } from "./prepare.ts";
import { replyReport } from "./report.ts";
import { markSuperseded } from "./steps.ts";

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
  if (
    !usage.inputTokens ||
    !ok(usage.inputTokens) ||
    !ok(usage.outputTokens) ||
    !ok(usage.cachedInputTokens) ||
    !ok(usage.cacheWriteTokens)
  )
    return undefined;
  if ((usage.cachedInputTokens ?? 0) + (usage.cacheWriteTokens ?? 0) > usage.inputTokens) return undefined;
  return {
    inputTokens: usage.inputTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: usage.cachedInputTokens }),
    // Only where the provider reports writes (Anthropic); 0 is not a figure worth storing on every OpenAI call.
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    outputTokens: usage.outputTokens ?? 0,
  };
}

/** What the loop's callbacks share: the model calls so far, and where the conversation's numbering continues. */
type RunState = { calls: CallUsage[]; callsBefore: number; promptSource: string };

/** The reply loop's options: the model, its prompt and tools, the step, and what each call and step records. */
function loopOptions(
  reply: ReplyContext,
  ports: ReplyPorts,
  prepared: PreparedReply,
  run: RunState,
  emit: (chunk: ChatChunk) => void,
  report: ReturnType<typeof replyReport>,
): ReplyOptions {
  const { conversationId, replyId, settings, contextWindow, history, committed } = reply;
  const { context, mcp, tools, steps, nextCallNumber, ancestors } = prepared;
  const save = async (message: ChatMessage) => {
    await committed;
    await updateMessage({ conversationId, id: replyId, parts: message.parts });
  };
  const toolDefinitions = toolsKey(tools);
  const cacheBreaks = cacheBreakObserver(conversationId);
  const modelWindow = reply.model.info.contextWindow;
  return {
    model: reply.model.model,
    // The system prompt, assembled before every model call from the settings its step read (so an edit made mid-reply
    // applies on the next step) and from the frozen workspace, which a compression during the reply refreshes. What it
    // was assembled from tells a changed prompt apart from the person's edit.
    instructions: () => {
      const current = steps.settings();
      run.promptSource = promptSourceOf(current, modelWindow);
      return systemPromptFor(current, reply.workspace.frozen(), modelWindow, {
        agent: ports.child?.agent,
        spawns: reply.spawns,
      }).text;
    },
    tools,
    repairToolCall: repairToolInput,
    unrunToolError: unknownToolError(nextCallNumber, Object.keys(tools)),
    // An MCP call that needs the person waits for their answer, stored so any tab or instance can give it.
    toolApproval: ({ toolName }) => mcp.approvalFor(toolName),
    awaitApprovals: async (pending) => {
      const answers = await waitForApprovals({
        conversationId,
        replyId,
        pending,
        signal: reply.abortSignal,
        committed,
        nextCallNumber,
        ancestors,
      });
      for (const answer of answers)
        if (answer.remember) mcp.remember(pending.find((p) => p.toolCallId === answer.toolCallId)?.toolName ?? "");
      return answers;
    },
    history: context.modelMessages,
    // Continue: the reply so far, then the one reminder to go on (lib/agent/continue-reply.ts).
    prelude: reply.continued
      ? [...context.prelude, continueHintChunk(replyId, run.callsBefore + run.calls.length + 1, clockNow())]
      : context.prelude,
    ...(reply.continued ? { seed: reply.continued.parts } : {}),
    convert: convertOptionsFor(settings),
    replyId,
    abortSignal: reply.abortSignal,
    maxRetries: Math.floor(envNumber("HINTLINE_MAX_RETRIES", 2)),
    retryBaseMs: envNumber("HINTLINE_RETRY_BASE_MS", 1000),
    idleTimeoutMs: envNumber("HINTLINE_PROVIDER_TIMEOUT_MS", 60_000) || 60_000,
    maxOutputTokens: replyTokenCeiling(reply.model.info.id),
    maxReplyChars: maxReplyChars(),
    maxSteps: maxStepsOf(ports),
    emit,
    beforeStep: steps.beforeStep,
    // Anthropic caches only at marked breakpoints (lib/agent/cache-breakpoints.ts); a replace status goes away.
    markCall:
      reply.model.info.provider === "anthropic"
        ? (instructions, messages) =>
            breakpointsFor(conversationId).mark(instructions, messages, {
              lastKept: steps.endsWithReplace() ? messages.length - 2 : undefined,
            })
        : undefined,
    // A crash (even SIGKILL) loses at most a second of the reply; the next load marks it incomplete.
    checkpoint: {
      everyMs: 1000,
      save,
      onError: logFailure("a reply checkpoint failed; the next one writes it again", { conversationId, replyId }),
    },
    onModelCall: async ({ stepIndex, instructions, messages, history: stable, usage: reported }) => {
      run.calls.push(plausibleUsage(reported, contextWindow) ?? {});
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
        },
        committed,
      );
      if (found) {
        await committed;
        await recordCacheBreak(conversationId, found);
      }
    },
    onStepEnd: async ({ reply: message, usage: reported, final }) => {
      const usage = plausibleUsage(reported, contextWindow);
      if (usage) steps.recordStep(usage.inputTokens, usage.outputTokens);
      // The meter moves during the reply: the next input holds the reply so far.
      const figure = context.usageWith(message, steps.compression());
      emit({
        type: "data-context-usage",
        id: "usage",
        data: { ...figure, cache: cacheFigures(history, run.calls) },
        transient: true,
      });
      // A step that ends the reply is saved once, with its status, right after.
      if (final) return;
      await save(message);
      if (ports.child?.onProgress) {
        await Promise.resolve(ports.child.onProgress({ reply: message, calls: run.calls })).catch(
          logFailure("recording a subagent's progress failed", { conversationId }),
        );
      }
    },
  };
}

export async function runReplyInto(
  reply: ReplyContext,
  ports: ReplyPorts,
  writer: UIMessageStreamWriter<ChatMessage>,
): Promise<void> {
  const { conversationId, replyId, committed } = reply;
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
  const metadataOf = (extra: object) => ({
    model: modelId,
    ...(run.calls.length ? { usage: run.calls } : {}),
    ...extra,
    endedAt: clockNow().toISOString(),
  });
  const stopped = () => reply.abortSignal.aborted;
  try {
    const outcome = await runReply(loopOptions(reply, ports, prepared, run, emit, report));
    // The reply's last call is over: its replace status (if any) is not part of any later call.
    await Promise.all([prepared.steps.written(), reply.workspace.stored()]);
    const closed = prepared.steps.closeStatus();
    if (closed) {
      markSuperseded(outcome.reply, closed.chunk.id ?? "");
      if (!closed.quiet) emit(closed.chunk);
    }
    await committed;
    const metadata = metadataOf({
      ...(outcome.error ? { error: outcome.error } : {}),
      ...(outcome.stepLimit ? { stepLimit: outcome.stepLimit } : {}),
    });
    await updateMessage({ conversationId, id: replyId, parts: outcome.reply.parts, metadata, status: outcome.status });
    if (!reply.continued) {
      await titleAfterFirstReply({
        conversationId,
        history: reply.history,
        abortSignal: reply.abortSignal,
        model: reply.utility.model,
        modelId: reply.utility.info.id,
        reply: outcome.reply,
        status: outcome.status,
      });
    }
    writer.write({ type: "message-metadata", messageMetadata: { ...metadata, status: outcome.status } });
    writer.write({ type: "finish" });
    report.end({
      status: outcome.status,
      error: outcome.error,
      stopped: stopped(),
      stopReason: reply.abortSignal.reason,
    });
    await ports.child?.onSettled({
      status: outcome.status,
      reply: outcome.reply,
      error: outcome.error,
      stopped: stopped(),
      calls: run.calls,
    });
  } catch (error) {
    report.end({ status: "error", error, stopped: false });
    await committed
      .then(() =>
        updateMessage({
          conversationId,
          id: replyId,
          metadata: metadataOf({ error: describeError(error) }),
          status: "error",
        }),
      )
      .catch(logFailure("storing a failed reply's error failed", { conversationId, replyId }));
    await Promise.resolve(
      ports.child?.onSettled({ status: "error", error: describeError(error), stopped: stopped(), calls: run.calls }),
    ).catch(logFailure("settling a subagent's run failed", { conversationId, replyId }));
    throw error;
  } finally {
    await prepared.mcp.close();
  }
}
