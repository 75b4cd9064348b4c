// A reply's end: the loop's outcome stored with its status and metadata, the conversation titled, a child's run settled.
import type { UIMessageStreamWriter } from "ai";
import { runHandedOver } from "../runs/local-runs.ts";
import { describeError } from "../../agent/describe-error.ts";
import { wordsFor } from "../../operator-words.ts";
import type { runReply } from "../../agent/reply-loop.ts";
import type { ChatMessage } from "../../chat-message.ts";
import { now as clockNow } from "../../clock.ts";
import { updateMessage } from "../../db/messages.ts";
import { logFailure } from "../../log/logger.ts";
import { titleAfterFirstReply } from "../titles.ts";
import type { LoopParts } from "./loop-parts.ts";
import { markSuperseded } from "./steps.ts";
import { HANDOVER_REASON, TAKEN_OVER_REASON } from "../../agent/resume-point.ts";
import { SHUTDOWN_REASON } from "../draining.ts";
import { replyLock } from "../live/reply-lock.ts";

/** The metadata a settled reply is stored with: its model, its calls, what `extra` adds, and when it ended. */
function metadataOf({ reply, run }: LoopParts, extra: object) {
  const resumes = reply.continued?.metadata?.resumes;
  return {
    model: reply.model.info.id,
    ...(run.calls.length ? { usage: run.calls } : {}),
    // Where the reply went on after its process stopped (lib/chat/runs/resume-replies.ts): kept by later writes.
    ...(resumes?.length ? { resumes } : {}),
    ...extra,
    endedAt: clockNow().toISOString(),
  };
}

/** The loop ended: close the replace status, store the reply with its status, title the conversation, tell everyone. */
export async function settleReply(
  parts: LoopParts,
  outcome: Awaited<ReturnType<typeof runReply>>,
  writer: UIMessageStreamWriter<ChatMessage>,
): Promise<void> {
  const { reply, ports, prepared, run, emit, report } = parts;
  const { conversationId, replyId } = reply;
  const stopped = reply.abortSignal.aborted;
  // Handed over at a graceful restart (a subagent's reply too: its run is adopted like one whose process was killed).
  if (reply.abortSignal.reason === HANDOVER_REASON) return handOver(parts, outcome, writer);
  // Another instance took the run over while this one was silent: the reply is its to write now.
  if (reply.abortSignal.reason === TAKEN_OVER_REASON) return leaveToAdopter(parts, outcome, writer);
  // What the steps, the workspace and a first MCP tool list store is written before the reply ends: the next turn,
  // however soon, reads it (run 12: a turn right after the first read no stored list and offered no MCP tools).
  await Promise.all([prepared.steps.written(), reply.workspace.stored(), prepared.mcp.listStored]);
  // The reply's last call is over: its replace status (if any) is not part of any later call.
  const closed = prepared.steps.closeStatus();
  if (closed) {
    markSuperseded(outcome.reply, closed.chunk.id ?? "");
    if (!closed.quiet) emit(closed.chunk);
  }
  await reply.committed;
  // Silent past its lease (a paused process), this instance lost the run to another: the reply is that one's to end.
  if (await replyLock().takenOver(conversationId, replyId)) return leaveToAdopter(parts, outcome, writer);
  const metadata = metadataOf(parts, {
    ...(outcome.error ? { error: outcome.error } : {}),
    ...(outcome.stepLimit ? { stepLimit: outcome.stepLimit } : {}),
  });
  const written = await updateMessage({
    conversationId,
    id: replyId,
    parts: outcome.reply.parts,
    metadata,
    status: outcome.status,
    onlyWhileStreaming: true,
  });
  // Settled meanwhile by the instance that took the run over (and ended it) while this one was silent.
  if (!written) return leaveToAdopter(parts, outcome, writer);
  // A resumed first reply is still the first: it names the conversation.
  if (!reply.continued || reply.resumed) {
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
  report.end({ status: outcome.status, error: outcome.error, stopped, stopReason: reply.abortSignal.reason });
  await ports.child?.onSettled({
    status: outcome.status,
    reply: outcome.reply,
    error: outcome.error,
    stopped,
    calls: run.calls,
  });
}

/** The reply failed outside the loop's own handling: store the error on it and settle a child's run. */
export async function settleFailedReply(parts: LoopParts, error: unknown): Promise<void> {
  const { reply, ports, run, report } = parts;
  const { conversationId, replyId } = reply;
  report.end({ status: "error", error, stopped: false });
  await reply.committed
    .then(() =>
      updateMessage({
        conversationId,
        id: replyId,
        metadata: metadataOf(parts, { error: wordsFor(describeError(error), reply.operatorWords) }),
        status: "error",
      }),
    )
    .catch(logFailure("storing a failed reply's error failed", { conversationId, replyId }));
  await Promise.resolve(
    ports.child?.onSettled({
      status: "error",
      error: wordsFor(describeError(error), reply.operatorWords),
      stopped: reply.abortSignal.aborted,
      calls: run.calls,
    }),
  ).catch(logFailure("settling a subagent's run failed", { conversationId, replyId }));
}

/**
 * A graceful restart handed the reply over: what it has is saved and it stays "streaming", so that the next start
 * resumes it (SQLite: lib/chat/runs/resume-replies.ts) or another instance takes it over at once (PostgreSQL: the run
 * engine fails its job into the recovery queue). Whoever follows it is told it goes on.
 */
async function handOver(
  { reply, report }: LoopParts,
  outcome: Awaited<ReturnType<typeof runReply>>,
  writer: UIMessageStreamWriter<ChatMessage>,
): Promise<void> {
  const { conversationId, replyId } = reply;
  await reply.committed;
  await updateMessage({ conversationId, id: replyId, parts: outcome.reply.parts });
  runHandedOver(replyId);
  writer.write({ type: "message-metadata", messageMetadata: { status: "incomplete", error: HANDOVER_REASON } });
  writer.write({ type: "finish" });
  report.end({ status: outcome.status, error: outcome.error, stopped: true, stopReason: SHUTDOWN_REASON });
}

/** Taken over by another instance: nothing is written here (the adopter writes the reply); followers are told. */
function leaveToAdopter(
  { report }: LoopParts,
  outcome: Awaited<ReturnType<typeof runReply>>,
  writer: UIMessageStreamWriter<ChatMessage>,
): void {
  writer.write({ type: "message-metadata", messageMetadata: { status: "incomplete", error: TAKEN_OVER_REASON } });
  writer.write({ type: "finish" });
  report.end({ status: outcome.status, error: outcome.error, stopped: true, stopReason: TAKEN_OVER_REASON });
}
