// A chat turn's opening: every refusal that needs no lock (the conversation's owner, the attachments, the workspace,
// the model, the edited message), then — holding the reply lock — the conversation read once, the checks that need it,
// and the person's message and the reply row written (lib/chat/record-turn.ts). What it read becomes the reply's
// context (context.ts).
import { refuseOverBudget } from "../budgets.ts";
import { checkConversation, checkOwnerOf, defaultWorkspaceOf, resolveWorkspace } from "../../auth/scope.ts";
import { ownerIdOf, type Viewer } from "../../auth/viewer.ts";
import type { ConversationMode } from "../../agent/plan-mode.ts";
import { canonicalTimeZone } from "../../agent/settings.ts";
import type { ResolvedModel } from "../../ai/providers/index.ts";
import { ApiError } from "../../api/errors.ts";
import type { ChatMessage, Task } from "../../chat-message.ts";
import { deleteConversation, ensureConversation, getConversation } from "../../db/conversations.ts";
import { findLastMessage } from "../../db/messages.ts";
import { listTasks } from "../../db/tasks.ts";
import { checkImagesAccepted, prepareAttachments } from "../attachments.ts";
import { branchForEditedMessage, checkEdit } from "../branches.ts";
import { checkModelChoice, modelForConversation } from "../conversation-model.ts";
import { refuseIfDisabled } from "../disabled-users.ts";
import { type OpenedTurn, openContinuation, openTurn, type PersonMessage } from "../record-turn.ts";
import type { ChildTurn } from "../subagent-runs.ts";
import { requireWorkspace } from "../workspaces.ts";

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

export const isContinue = (request: ChatRequest | ContinueRequest): request is ContinueRequest =>
  "continue" in request && request.continue === true;

/** The reply a Continue carries on (its row id is the reply's), or why not, before anything is locked or written. */
export async function continuedReplyId(conversationId: string): Promise<string> {
  if (!(await getConversation({ id: conversationId })))
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  const last = await findLastMessage({ conversationId });
  if (!last) throw new ApiError("bad_request", "This conversation has no reply to continue.");
  if (last.role !== "assistant")
    throw new ApiError(
      "bad_request",
      "The last message is yours, not a reply: there is nothing to continue. Send a message or regenerate.",
    );
  return last.id;
}

/** A request as the turn takes it: its attachments checked (a PDF's text extracted), its zone, workspace and model. */
export type CheckedTurn = {
  request: ChatRequest | ContinueRequest;
  continuing: boolean;
  timezone?: string;
  workspaceId?: string;
  chosenModel: string | null;
};

/** Everything that refuses a turn before the lock, in the order a person would want to hear of it; nothing is written. */
export async function checkTurn(asked: ChatRequest | ContinueRequest, viewer: Viewer): Promise<CheckedTurn> {
  const conversationId = asked.id;
  // Another user's conversation answers as an unknown one would, before anything is read or written.
  const exists = await checkConversation(viewer, conversationId);
  // Attachments are checked (and a PDF's text extracted) before anything is written.
  const request: ChatRequest | ContinueRequest = isContinue(asked)
    ? asked
    : {
        ...asked,
        message: { ...asked.message, parts: await prepareAttachments(asked.message.parts, "message.parts") },
      };
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
    throw new ApiError(
      "not_found",
      `Conversation ${conversationId} does not exist, so it has no message ${request.editOf} to edit.`,
    );
  }
  // Accounts mode: a person over budget is refused here, before the lock, any write or any model call.
  await refuseOverBudget(viewer, timezone);
  return {
    request,
    continuing,
    ...(timezone ? { timezone } : {}),
    ...(workspaceId !== undefined ? { workspaceId } : {}),
    chosenModel,
  };
}

type Conversation = Awaited<ReturnType<typeof ensureConversation>>;

/** The turn opened: the conversation as the reply starts from it, its model, its tasks and the turn's rows. */
export type OpenedReply = {
  conversation: Conversation;
  resolved: ResolvedModel;
  tasks: Task[];
  turn: OpenedTurn & { continued?: ChatMessage };
};

/**
 * Opens the turn under the reply lock: reads the conversation once (creating it for a first message), checks what
 * needs it, moves an edited message's branch aside and writes the turn. On a refusal a conversation this request
 * created is removed again (it holds no message; a child's row belongs to its parent) and the error goes on.
 */
export async function openReplyTurn({
  checked,
  viewer,
  child,
  replyId,
}: {
  checked: CheckedTurn;
  viewer: Viewer;
  child?: ChildTurn;
  replyId: string;
}): Promise<OpenedReply> {
  const { request, continuing, timezone, workspaceId, chosenModel } = checked;
  const conversationId = request.id;
  let conversation: Conversation | undefined;
  try {
    if (viewer.kind === "user") refuseIfDisabled(viewer.userId);
    let tasks: Task[];
    // Read before the turn's transaction: on SQLite that holds the one connection until it commits.
    [conversation, tasks] = await Promise.all([
      continuing
        ? ensureConversation({ id: conversationId, settings: {} })
        : ensureConversation({
            id: conversationId,
            settings: timezone ? { injection: { timezone } } : {},
            mode: (request as ChatRequest).mode,
            workspaceId,
            model: chosenModel,
            ownerId: ownerIdOf(viewer),
          }),
      listTasks({ conversationId }),
    ]);
    // Two users' first messages racing to create the same id: the one whose row it is not gets a 404.
    checkOwnerOf(viewer, conversation);
    if (conversation.parentId && !child) {
      throw new ApiError(
        "conflict",
        `Conversation ${conversationId} is a subagent's: only its parent's agent writes to it (AgentSend). Read it, or stop it.`,
      );
    }
    // The conversation's own model, else the default; one the environment no longer allows is refused here.
    const resolved = modelForConversation(conversation.model);
    if (isContinue(request))
      return { conversation, resolved, tasks, turn: await openContinuation({ conversation, replyId }) };
    // An image for a model that takes none is refused, naming the model (nothing is written).
    checkImagesAccepted(request.message.parts, resolved.info.id);
    if (request.editOf !== undefined) {
      // Whatever would refuse the edited turn is checked first: a refused edit archives nothing.
      await checkEdit(conversationId, request.editOf, request.message.id);
      // The edited message and what followed it become an alternative; the new message follows the same anchor.
      await branchForEditedMessage(conversationId, request.editOf);
      conversation = await reread(conversation);
    }
    const reply: ChatMessage = { id: replyId, role: "assistant", parts: [], metadata: { model: resolved.info.id } };
    const turn = await openTurn({ conversation, message: request.message, reply });
    // The regenerated reply was archived as an alternative: the harness state is read as that move left it.
    if (turn.retry) conversation = await reread(conversation);
    return { conversation, resolved, tasks, turn };
  } catch (error) {
    if (conversation?.created && !conversation.parentId)
      await deleteConversation({ id: conversationId, onlyIfEmpty: true }).catch(() => {});
    throw error;
  }
}

/** The conversation read again after a branch move (its harness state moved with it); it was not created here then. */
async function reread(conversation: Conversation): Promise<Conversation> {
  const moved = await getConversation({ id: conversation.id });
  return moved ? { ...moved, created: false } : conversation;
}
