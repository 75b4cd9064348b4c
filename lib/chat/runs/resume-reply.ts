// Resuming one reply whose process stopped, under its conversation's lock (held by the caller): its stored parts are
// cut back to the last finished step (lib/agent/resume-point.ts) and the run goes on from there, with the resume
// recorded in its metadata. Used at start-up on SQLite (resume-replies.ts, "restart") and by the instance that takes
// over a dead one's run on PostgreSQL (pg-boss-engine.ts, "instance-lost"). A subagent's reply is resumed alike, as a
// run of its child (its agent, tools and limits; its record settled as it ends), moved to the background.
import type { ChatMessage, ResumeData } from "../../chat-message.ts";
import { now as clockNow } from "../../clock.ts";
import {
  INTERRUPTED_CALL_ADVICE,
  interruptedCallText,
  resumePoint,
  TOOL_INTERRUPTED_ERROR,
} from "../../agent/resume-point.ts";
import { describeError } from "../../agent/describe-error.ts";
import { wordsFor } from "../../operator-words.ts";
import { readsOperatorWords } from "../operator-reader.ts";
import { ToolError } from "../../agent/tool-result.ts";
import { getConversation } from "../../db/conversations.ts";
import { getConversationMcpToolsRow } from "../../db/conversation-mcp-tools.ts";
import { listMessages, settleStaleReplies, updateMessage } from "../../db/messages.ts";
import { listTasks } from "../../db/tasks.ts";
import { logFailure } from "../../log/logger.ts";
import { modelForConversation } from "../conversation-model.ts";
import { detachReply } from "../live/live-reply.ts";
import { replyLock } from "../live/reply-lock.ts";
import { storedList } from "../mcp-reply.ts";
import { requeueCutSteers } from "../queue-delivery.ts";
import { adoptedChildTurn, type ChildTurn } from "../subagent-runs.ts";
import type { OpenedReply } from "../reply/open-turn.ts";
import { replyContextOf, replyStream } from "../start-reply.ts";
import { readOnlyTools } from "../tools/read-only.ts";
import { createCallCounter } from "../tools/tool-context.ts";

/** A reply whose lock the caller holds; `ended` is told once it has ended and its lock is released. */
export type HeldReply = { conversationId: string; replyId: string; controller: AbortController; ended?: () => void };

/** Resumes one reply until it ends (or settles it as interrupted when it cannot go on). */
export async function resumeHeld(
  { conversationId, replyId, controller, ended: runEnded }: HeldReply,
  reason: ResumeData["reason"],
): Promise<void> {
  const release = () =>
    replyLock()
      .release(conversationId, replyId)
      .catch(logFailure("releasing the reply lock failed", { conversationId, replyId }))
      .finally(runEnded);
  let stream: ReturnType<typeof replyStream>;
  let child: ChildTurn | undefined;
  try {
    const opened = await openResumption(conversationId, replyId, reason);
    child = opened?.child;
    if (!opened) {
      // Settled while the lock is still held: no new reply of the conversation can be taken for a stale one.
      await settleStaleReplies({ conversationId, activeIds: new Set() });
      await release();
      return;
    }
    const reply = await replyContextOf({ opened, replyId, signal: controller.signal, resumed: opened.resumed, child });
    let ended!: () => void;
    const over = new Promise<void>((resolve) => {
      ended = resolve;
    });
    stream = replyStream(reply, child, async () => {
      await release();
      ended();
    });
    // Followers (GET …/stream, any tab) see it go on; nobody here reads the answer.
    await detachReply({ conversationId, replyId, stream }).body?.cancel();
    await over;
  } catch (error) {
    logFailure("resuming a reply failed; it is settled as interrupted", { conversationId, replyId })(error);
    await settleStaleReplies({ conversationId, activeIds: new Set() }).catch(() => {});
    await Promise.resolve(
      child?.onSettled({
        status: "error",
        error: wordsFor(describeError(error), await readsOperatorWords(null)),
        stopped: false,
        calls: [],
      }),
    ).catch(logFailure("settling a subagent's run failed", { conversationId, replyId }));
    await release();
  }
}

/**
 * The reply as it goes on: its stored parts cut back to the last finished step, with the resume recorded in its
 * metadata; a subagent's with its child's turn. None when it is no longer streaming, not the conversation's last
 * message, or a subagent's whose run was settled meanwhile (then it is settled as interrupted).
 */
export async function openResumption(
  conversationId: string,
  replyId: string,
  reason: ResumeData["reason"],
): Promise<(OpenedReply & { resumed: ResumeData; child?: ChildTurn }) | undefined> {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation) return undefined;
  const messages = await listMessages({ conversationId });
  const stored = messages.at(-1);
  if (stored?.id !== replyId || stored.role !== "assistant" || stored.metadata?.status !== "streaming")
    return undefined;
  const resolved = modelForConversation(conversation.model);
  const [tasks, mcpRow] = await Promise.all([
    listTasks({ conversationId }),
    getConversationMcpToolsRow({ conversationId }),
  ]);
  const history = messages.slice(0, -1);
  const cut = resumePoint(stored.parts, {
    readOnly: readOnlyTools(storedList(mcpRow).tools),
    interruptedText: ({ toolName, input, before }) =>
      new ToolError({
        type: TOOL_INTERRUPTED_ERROR,
        text: interruptedCallText(toolName),
        args: input,
        advice: INTERRUPTED_CALL_ADVICE,
        toolName,
        call: createCallCounter([...history, { ...stored, parts: [...before] }])(toolName),
      }).message,
  });
  const resumed: ResumeData = { at: clockNow().toISOString(), afterStep: cut.afterStep, reason };
  const { status: _status, ...kept } = stored.metadata ?? {};
  const metadata = { ...kept, resumes: [...(kept.resumes ?? []), resumed] };
  const continued: ChatMessage = { ...stored, parts: cut.parts, metadata };
  // Last before the write: from here the child's run is this process's, settled however the resume ends.
  const child = conversation.parentId
    ? await adoptedChildTurn(conversationId, stored.metadata?.usage ?? [])
    : undefined;
  if (conversation.parentId && !child) return undefined;
  const committed = updateMessage({ conversationId, id: replyId, parts: cut.parts, metadata }).then(() => {});
  committed.catch(() => {}); // awaited by the run before it writes
  await requeueCutSteers(conversationId, replyId, cut.parts as { type: string; id?: string }[]);
  return {
    conversation: { ...conversation, created: false },
    resolved,
    tasks,
    turn: { history, committed, continued },
    resumed,
    ...(child ? { child } : {}),
  };
}
