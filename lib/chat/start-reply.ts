// Orchestrates one chat turn. The person's message and the reply row are written in one transaction while the
// first model call already starts; the response (and with it anything the model said) is only sent once that
// write is committed, so a failing or vanishing provider, or a failed write, never loses the person's message.
import { OPERATOR, type Viewer } from "../auth/viewer.ts";
import { createUIMessageStream, generateId } from "ai";
import { describeError } from "../agent/describe-error.ts";
import { TAKEN_OVER_REASON } from "../agent/resume-point.ts";
import { wordsFor } from "../operator-words.ts";
import { resolveSettings } from "../agent/settings.ts";
import { ApiError } from "../api/errors.ts";
import type { ChatMessage, ResumeData } from "../chat-message.ts";
import { activeOrdinal } from "../db/branches.ts";
import { DEMO_MODEL_ID } from "../ai/demo-model-id.ts";
import { deleteConversation } from "../db/conversations.ts";
import { parseAgentState } from "./agent-state.ts";
import { listenForDisabledUsers } from "./disabled-users.ts";
import { detachReply } from "./live/live-reply.ts";
import { replyLock } from "./live/reply-lock.ts";
import { utilityModelFor } from "./conversation-model.ts";
import { meteredModel } from "./usage-meter.ts";
import type { ReplyContext } from "./reply/context.ts";
import {
  type ChatRequest,
  type ContinueRequest,
  checkTurn,
  continuedReplyId,
  type OpenedReply,
  openReplyTurn,
} from "./reply/open-turn.ts";
import { runReplyInto } from "./reply/run.ts";
import { ancestorIds, inheritedMode } from "./subagent-mode.ts";
import { spawnsAt } from "../agent/tool-catalog.ts";
import { readsOperatorWords } from "./operator-reader.ts";
import type { ChildTurn } from "./subagent-runs.ts";
import { openWorkspaceTracker } from "./workspace-view.ts";
import { logFailure } from "../log/logger.ts";
import { isDraining, replyRunning } from "./draining.ts";
import { runStarted } from "./runs/local-runs.ts";
import { afterReplySettled } from "./queue-delivery.ts";

export type { ChatRequest, ContinueRequest };

/** Starts a reply that runs until it ends, Stop or an error: the request going away does not stop it. */
export async function startReply({
  request: asked,
  child,
  viewer = OPERATOR,
  replyId: chosenReplyId,
}: {
  request: ChatRequest | ContinueRequest;
  child?: ChildTurn;
  /** Who sends it (a child's turn is the server's own, for its parent's owner; so is a queued message's). */
  viewer?: Viewer;
  /** The new reply's id (a queued message's turn names it first); a Continue keeps the reply it continues. */
  replyId?: string;
}): Promise<Response> {
  const conversationId = asked.id;
  if (isDraining())
    throw new ApiError(
      "unavailable",
      "This server is restarting and takes no new replies; try again in a few seconds.",
    );
  const checked = await checkTurn(asked, viewer);
  // The lock first: a message refused because a reply is live (409) creates nothing, not even the conversation.
  // A Continue holds it under the id of the reply it continues (the row that is "streaming" again).
  const replyId = checked.continuing ? await continuedReplyId(conversationId) : (chosenReplyId ?? generateId());
  // An admin may disable the user while this request is under way: this instance hears of it from now on.
  if (viewer.kind === "user") await listenForDisabledUsers();
  const controller = await replyLock().acquire(conversationId, replyId);
  if (!controller)
    throw new ApiError(
      "conflict",
      "A reply is still being written in this conversation. Stop it or wait for it to finish.",
    );
  // Every reply is a run, a subagent's too (PostgreSQL: another instance takes it over if this one dies).
  const runEnded = runStarted(conversationId, replyId);
  const release = () =>
    replyLock()
      .release(conversationId, replyId)
      .catch(logFailure("releasing the reply lock failed", { conversationId, replyId }))
      .finally(runEnded);
  let opened: Awaited<ReturnType<typeof openReplyTurn>>;
  try {
    opened = await openReplyTurn({ checked, viewer, child, replyId });
  } catch (error) {
    await release();
    throw error;
  }
  const { conversation, turn } = opened;
  const reply = await replyContextOf({ opened, replyId, signal: controller.signal, child });
  const stream = replyStream(reply, child, release);
  try {
    await turn.committed;
  } catch (error) {
    controller.abort(); // the model call started; nothing of it is kept
    if (conversation.created && !conversation.parentId)
      await deleteConversation({ id: conversationId, onlyIfEmpty: true }).catch(() => {});
    throw error;
  }
  return detachReply({ conversationId, replyId, stream });
}

/**
 * Which attempt at answering the person's latest message this reply is: 0 for its first version, n for the version
 * ‹ n+1 › that Regenerate made (a Continue or a resume of that version is the same attempt).
 */
async function attemptOf(conversationId: string, history: readonly ChatMessage[]): Promise<number> {
  const person = history.at(-1);
  if (person?.role !== "user") return 0;
  return (await activeOrdinal({ conversationId, anchorId: person.id })) - 1;
}

/** What the run reads as it starts, from the turn just opened (or the reply a resume goes on with). */
export async function replyContextOf({
  opened,
  replyId,
  signal,
  child,
  resumed,
}: {
  opened: OpenedReply;
  replyId: string;
  signal: AbortSignal;
  child?: ChildTurn;
  resumed?: ResumeData;
}): Promise<ReplyContext> {
  const { conversation, resolved, turn } = opened;
  const conversationId = conversation.id;
  const settings = resolveSettings(conversation.settings);
  const ancestors = child ? await ancestorIds(child.parentId) : [];
  // A conversation's depth never changes: whether it may spawn, and so its tool list, stays the same call after call.
  const spawns = spawnsAt(ancestors.length);
  return {
    conversationId,
    replyId,
    // Every call of the reply, its title and its summaries counts towards the owner's budget (a child's: its parent's).
    model: meteredModel(resolved, conversation.ownerId),
    utility: meteredModel(utilityModelFor(resolved), conversation.ownerId),
    settings,
    contextWindow: settings.context.contextWindow ?? resolved.info.contextWindow,
    opened: {
      agentState: parseAgentState(conversation.agentState),
      // A subagent's mode is the person's conversation's above it.
      mode: child ? await inheritedMode(child.parentId) : conversation.mode,
      workspaceId: conversation.workspaceId,
      tasks: opened.tasks,
    },
    history: turn.history,
    retry: turn.retry === true,
    // Only the demo model words an attempt anew: no query for the others.
    attempt: resolved.info.id === DEMO_MODEL_ID ? await attemptOf(conversationId, turn.history) : 0,
    ...(turn.continued ? { continued: turn.continued } : {}),
    ...(resumed ? { resumed } : {}),
    committed: turn.committed,
    abortSignal: signal,
    ancestors,
    spawns,
    operatorWords: await readsOperatorWords(conversation.ownerId),
    // The workspace as this conversation's prompt holds it (frozen at its first reply, refreshed at compressions).
    workspace: await openWorkspaceTracker(conversationId, { spawns }),
  };
}

/** The reply run into a UI message stream; the lock is released when it ends. */
export function replyStream(reply: ReplyContext, child: ChildTurn | undefined, release: () => Promise<unknown>) {
  return createUIMessageStream<ChatMessage>({
    execute: async ({ writer }) => {
      const over = replyRunning();
      try {
        // A reply's AgentSpawn and AgentSend start their children's turns through this same function.
        await runReplyInto(reply, { ...(child ? { child } : {}), spawn: startReply }, writer);
      } finally {
        await release();
        over();
        // What the reply took from the queue is delivered; the next queued message becomes the next turn (by the
        // instance that took the reply over, when another did).
        if (reply.abortSignal.reason !== TAKEN_OVER_REASON)
          afterReplySettled(reply.conversationId, reply.replyId, { child: child !== undefined, start: startReply });
      }
    },
    onError: (error) => wordsFor(describeError(error), reply.operatorWords),
  });
}
