// A conversation's queue (POST|GET /api/conversations/:id/queue, PATCH|DELETE …/queue/:messageId): messages the person
// sends while a reply runs, stored so any tab, any instance and a restart see the same queue. Checked as /api/chat
// checks a message (attachments, images for the model, a subagent's conversation refused); with no reply running the
// message starts its turn at once, as POST /api/chat would (queue-delivery.ts).
import { refuseOverBudget } from "./budgets.ts";
import type { Viewer } from "../auth/viewer.ts";
import { MAX_QUEUED_MESSAGES } from "../api/limits.ts";
import { ApiError } from "../api/errors.ts";
import { getConversation } from "../db/conversations.ts";
import {
  cancelQueued,
  deleteQueued,
  editQueued,
  getQueued,
  listQueued,
  type QueuedMessageRow,
  queueMessage,
  type QueueStatus,
  type QueueWhen,
} from "../db/queued-messages.ts";
import { checkImagesAccepted, prepareAttachments } from "./attachments.ts";
import { modelForConversation } from "./conversation-model.ts";
import { replyLock } from "./live/reply-lock.ts";
import { deliverNext } from "./queue-delivery.ts";
import type { PersonMessage } from "./record-turn.ts";
import { startReply } from "./start-reply.ts";

export type QueuedView = {
  id: string;
  when: QueueWhen;
  position: number;
  status: QueueStatus;
  message: PersonMessage;
  createdAt: string;
  /** A message that started its turn at once (no reply was running): that reply's id, to follow (GET …/stream). */
  replyId?: string;
};

const viewOf = (row: QueuedMessageRow): QueuedView => ({
  id: row.id,
  when: row.when,
  position: row.position,
  status: row.status,
  message: row.message as PersonMessage,
  createdAt: row.createdAt.toISOString(),
});

async function requirePersonConversation(conversationId: string) {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation) throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  if (conversation.parentId)
    throw new ApiError(
      "conflict",
      `Conversation ${conversationId} is a subagent's: only its parent's agent writes to it (AgentSend). Read it, or stop it.`,
    );
  return conversation;
}

const unknownQueued = (conversationId: string, id: string) =>
  new ApiError("not_found", `Conversation ${conversationId} has no queued message ${id}.`);

/** Why a queued message can no longer be changed, naming its state. */
async function notQueued(conversationId: string, id: string): Promise<ApiError> {
  const row = await getQueued({ conversationId, id });
  if (!row) return unknownQueued(conversationId, id);
  const state =
    row.status === "cancelled" ? "was cancelled" : row.status === "delivered" ? "was delivered" : "is being delivered";
  return new ApiError("conflict", `Queued message ${id} ${state}: it can no longer be changed.`);
}

/** Queues a message (or, with no reply running, starts its turn); the answer of `202 { queued: [...] }`. */
export async function queueForConversation(
  conversationId: string,
  request: { message: PersonMessage; when: QueueWhen },
  viewer: Viewer,
): Promise<{ queued: Array<Pick<QueuedView, "id" | "when" | "position" | "status" | "replyId">> }> {
  const conversation = await requirePersonConversation(conversationId);
  const parts = await prepareAttachments(request.message.parts, "message.parts");
  checkImagesAccepted(parts, modelForConversation(conversation.model).info.id);
  // A steer adds to the running reply's calls and an after-reply message starts its own: over budget, neither is queued.
  await refuseOverBudget(viewer);
  const message: PersonMessage = { id: request.message.id, role: "user", parts };
  const answer = await queueMessage({
    conversationId,
    id: message.id,
    when: request.when,
    message,
    max: MAX_QUEUED_MESSAGES,
  });
  if ("missingConversation" in answer)
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  if ("duplicate" in answer)
    throw new ApiError(
      "conflict",
      `A message with id ${message.id} is already in conversation ${conversationId}'s queue.`,
    );
  if ("full" in answer)
    throw new ApiError(
      "conflict",
      `Conversation ${conversationId}'s queue holds ${answer.full} messages, the most it may (${MAX_QUEUED_MESSAGES}): cancel one or wait for the reply to take them.`,
    );
  const { id, when, position } = answer.queued;
  // Checked after the row is stored: a reply that ended meanwhile has looked at the queue already, or looks now.
  const started = (await replyLock().live(conversationId))
    ? undefined
    : await deliverNext(conversationId, (turn) => startReply(turn));
  if (started?.id !== id) return { queued: [{ id, when, position, status: "queued" }] };
  if ("replyId" in started) return { queued: [{ id, when, position, status: "delivered", replyId: started.replyId }] };
  // Its turn was refused (a reply got the lock first puts it back in the queue): refused, this request leaves nothing.
  if ((await getQueued({ conversationId, id }))?.status === "queued")
    return { queued: [{ id, when, position, status: "queued" }] };
  await deleteQueued({ conversationId, id });
  throw started.refused;
}

export async function listQueue(conversationId: string): Promise<{ queued: QueuedView[] }> {
  await requirePersonConversation(conversationId);
  return { queued: (await listQueued({ conversationId })).map(viewOf) };
}

/** Replaces a queued message's text (its attachments stay); 409 once it was taken, delivered or cancelled. */
export async function editQueuedText(conversationId: string, id: string, text: string): Promise<QueuedView> {
  await requirePersonConversation(conversationId);
  const row = await getQueued({ conversationId, id });
  if (!row) throw unknownQueued(conversationId, id);
  const before = row.message as PersonMessage;
  const message: PersonMessage = {
    ...before,
    parts: [{ type: "text", text }, ...before.parts.filter((p) => p.type !== "text")],
  };
  if (!(await editQueued({ conversationId, id, message }))) throw await notQueued(conversationId, id);
  return viewOf({ ...row, message });
}

/** Cancels a queued message; 409 once it was taken, delivered or cancelled. */
export async function cancelQueuedMessage(conversationId: string, id: string): Promise<void> {
  await requirePersonConversation(conversationId);
  if (!(await cancelQueued({ conversationId, id }))) throw await notQueued(conversationId, id);
}
