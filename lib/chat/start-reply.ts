// Orchestrates one chat turn. The person's message and the reply row are written in one transaction while the
// first model call already starts; the response (and with it anything the model said) is only sent once that
// write is committed, so a failing or vanishing provider, or a failed write, never loses the person's message.
import { checkConversation, checkOwnerOf, defaultWorkspaceOf, resolveWorkspace } from "../auth/scope.ts";
import { OPERATOR, ownerIdOf, type Viewer } from "../auth/viewer.ts";
import { createUIMessageStream, generateId } from "ai";
import { describeError } from "../agent/describe-error.ts";
import type { ConversationMode } from "../agent/plan-mode.ts";
import { canonicalTimeZone, resolveSettings } from "../agent/settings.ts";
import type { ResolvedModel } from "../ai/providers/index.ts";
import { ApiError } from "../api/errors.ts";
import type { ChatMessage, Task } from "../chat-message.ts";
import { deleteConversation, ensureConversation, getConversation } from "../db/conversations.ts";
import { findLastMessage } from "../db/messages.ts";
import { listTasks } from "../db/tasks.ts";
import { parseAgentState } from "./agent-state.ts";
import { checkImagesAccepted, prepareAttachments } from "./attachments.ts";
import { branchForEditedMessage, checkEdit } from "./branches.ts";
import { listenForDisabledUsers, refuseIfDisabled } from "./disabled-users.ts";
import { detachReply } from "./live/live-reply.ts";
import { replyLock } from "./live/reply-lock.ts";
import { type OpenedTurn, openContinuation, openTurn, type PersonMessage } from "./record-turn.ts";
import { checkModelChoice, modelForConversation, utilityModelFor } from "./conversation-model.ts";
import { streamReply } from "./stream-reply.ts";
import type { ChildTurn } from "./subagent-runs.ts";
import { openWorkspaceTracker } from "./workspace-view.ts";
import { requireWorkspace } from "./workspaces.ts";
import { logFailure } from "../ops/logger.ts";
import { isDraining, replyRunning } from "../ops/shutdown.ts";

export type ChatRequest = {
  id: string;
  message: PersonMessage;
  timezone?: string;
  mode?: ConversationMode;
  workspaceId?: string;
  /** The model of the conversation this message creates (an existing one keeps its own). */
  model?: string;
  editOf?: string;
};

/** Continue (`POST /api/chat { id, continue: true }`): the conversation's last reply, stopped early, goes on in place. */
export type ContinueRequest = { id: string; continue: true; timezone?: string };

const isContinue = (request: ChatRequest | ContinueRequest): request is ContinueRequest => "continue" in request && request.continue === true;

/** The reply a Continue carries on (its row id is the reply's), or why not, before anything is locked or written. */
async function continuedReplyId(conversationId: string): Promise<string> {
  if (!(await getConversation({ id: conversationId }))) throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  const last = await findLastMessage({ conversationId });
  if (!last) throw new ApiError("bad_request", "This conversation has no reply to continue.");
  if (last.role !== "assistant") throw new ApiError("bad_request", "The last message is yours, not a reply: there is nothing to continue. Send a message or regenerate.");
  return last.id;
}

/** Starts a reply that runs until it ends, Stop or an error: the request going away does not stop it. */
export async function startReply({
  request: asked,
  child,
  viewer = OPERATOR,
}: {
  request: ChatRequest | ContinueRequest;
  child?: ChildTurn;
  /** Who sends it (a child's turn is the server's own, for its parent's owner). */
  viewer?: Viewer;
}): Promise<Response> {
  const conversationId = asked.id;
  if (isDraining()) throw new ApiError("unavailable", "This server is restarting and takes no new replies; try again in a few seconds.");
  // Another user's conversation answers as an unknown one would, before anything is read or written.
  const exists = await checkConversation(viewer, conversationId);
  // Attachments are checked (and a PDF's text extracted) before anything is written.
  const request: ChatRequest | ContinueRequest = isContinue(asked)
    ? asked
    : { ...asked, message: { ...asked.message, parts: await prepareAttachments(asked.message.parts, "message.parts") } };
  const continuing = isContinue(request);
  // The browser's zone, written as its IANA name ("asia/shanghai" → "Asia/Shanghai"); an offset or unknown name is ignored.
  const timezone = request.timezone ? canonicalTimeZone(request.timezone) : undefined;
  // Only a message that names a workspace pays for this read; an unknown one (or another user's private one) is
  // refused before anything is written. A user's new conversation lands in their own default workspace.
  let workspaceId = continuing ? undefined : request.workspaceId;
  if (workspaceId !== undefined) workspaceId = await resolveWorkspace(viewer, workspaceId, "use");
  else if (exists === false) workspaceId = await defaultWorkspaceOf(viewer);
  if (!continuing && workspaceId !== undefined) await requireWorkspace(workspaceId);
  // A model this server cannot use is refused (400 naming what to set) before anything is written.
  const chosenModel = continuing || request.model === undefined ? null : checkModelChoice(request.model);
  // An edit needs the conversation it edits: an unknown one is refused before anything is written.
  if (!continuing && request.editOf !== undefined && !(await getConversation({ id: conversationId }))) {
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist, so it has no message ${request.editOf} to edit.`);
  }
  // The lock first: a message refused because a reply is live (409) creates nothing, not even the conversation.
  // A Continue holds it under the id of the reply it continues (the row that is "streaming" again).
  const replyId = continuing ? await continuedReplyId(conversationId) : generateId();
  // An admin may disable the user while this request is under way: this instance hears of it from now on.
  if (viewer.kind === "user") await listenForDisabledUsers();
  const controller = await replyLock().acquire(conversationId, replyId);
  if (!controller) {
    throw new ApiError("conflict", "A reply is still being written in this conversation. Stop it or wait for it to finish.");
  }
  let resolved: ResolvedModel;
  let conversation: Awaited<ReturnType<typeof ensureConversation>> | undefined;
  let tasksAtStart: Task[];
  let turn: OpenedTurn & { continued?: ChatMessage };
  try {
    if (viewer.kind === "user") refuseIfDisabled(viewer.userId);
    // Read before the turn's transaction: on SQLite that holds the one connection until it commits.
    [conversation, tasksAtStart] = await Promise.all([
      continuing
        ? ensureConversation({ id: conversationId, settings: {} })
        : ensureConversation({
            id: conversationId,
            settings: timezone ? { injection: { timezone } } : {},
            mode: request.mode,
            workspaceId,
            model: chosenModel,
            ownerId: ownerIdOf(viewer),
          }),
      listTasks({ conversationId }),
    ]);
    // Two users' first messages racing to create the same id: the one whose row it is not gets a 404.
    checkOwnerOf(viewer, conversation);
    if (conversation.parentId && !child) {
      throw new ApiError("conflict", `Conversation ${conversationId} is a subagent's: only its parent's agent writes to it (AgentSend). Read it, or stop it.`);
    }
    // The conversation's own model, else the default; one the environment no longer allows is refused here.
    resolved = modelForConversation(conversation.model);
    // An image for a model that takes none is refused, naming the model (nothing is written).
    if (!continuing) checkImagesAccepted(request.message.parts, resolved.info.id);
    const reply: ChatMessage = { id: replyId, role: "assistant", parts: [], metadata: { model: resolved.info.id } };
    if (!continuing && request.editOf !== undefined) {
      // Whatever would refuse the edited turn is checked first: a refused edit archives nothing.
      await checkEdit(conversationId, request.editOf, request.message.id);
      // The edited message and what followed it become an alternative; the new message follows the same anchor.
      await branchForEditedMessage(conversationId, request.editOf);
      const edited = await getConversation({ id: conversationId });
      if (edited) conversation = { ...edited, created: false };
    }
    turn = continuing ? await openContinuation({ conversation, replyId }) : await openTurn({ conversation, message: request.message, reply });
    if (turn.retry) {
      // The regenerated reply was archived as an alternative: the harness state is read as that move left it.
      const moved = await getConversation({ id: conversationId });
      if (moved) conversation = { ...moved, created: false };
    }
  } catch (error) {
    // A conversation this request created and could not use is removed again (it holds no message); a child's row
    // belongs to its parent.
    if (conversation?.created && !conversation.parentId) await deleteConversation({ id: conversationId, onlyIfEmpty: true }).catch(() => {});
    await replyLock()
      .release(conversationId, replyId)
      .catch(logFailure("releasing the reply lock failed", { conversationId, replyId }));
    throw error;
  }

  const { model, info } = resolved;
  const settings = resolveSettings(conversation.settings);
  // The workspace as this conversation's prompt holds it (frozen at its first reply, refreshed at compressions).
  const workspace = await openWorkspaceTracker(conversationId);
  const job = {
    conversationId,
    replyId,
    model,
    modelId: info.id,
    provider: info.provider,
    utility: utilityModelFor(resolved),
    settings,
    contextWindow: settings.context.contextWindow ?? info.contextWindow,
    agentState: parseAgentState(conversation.agentState),
    mode: conversation.mode,
    workspaceId: conversation.workspaceId,
    modelWindow: info.contextWindow,
    workspace,
    retry: turn.retry === true,
    ...(turn.continued ? { continued: turn.continued } : {}),
    history: turn.history,
    tasksAtStart,
    committed: turn.committed,
    abortSignal: controller.signal,
    // A reply's AgentSpawn and AgentSend start their children's turns through this same function.
    startChild: startReply,
    ...(child ? { agent: child.agent, toolNames: child.tools, parentId: child.parentId, onSettled: child.onSettled, onProgress: child.onProgress } : {}),
  };
  const stream = createUIMessageStream<ChatMessage>({
    execute: async ({ writer }) => {
      const over = replyRunning();
      try {
        await streamReply(job, writer);
      } finally {
        await replyLock()
          .release(conversationId, replyId)
          .catch(logFailure("releasing the reply lock failed", { conversationId, replyId }));
        over();
      }
    },
    onError: describeError,
  });
  try {
    await turn.committed;
  } catch (error) {
    controller.abort(); // the model call started; nothing of it is kept
    if (conversation.created && !conversation.parentId) await deleteConversation({ id: conversationId, onlyIfEmpty: true }).catch(() => {});
    throw error;
  }
  return detachReply({ conversationId, replyId, stream });
}
