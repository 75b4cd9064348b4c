// How queued messages reach the agent. A steer ("next-step") is taken by the running reply's next step and enters it
// as a `data-steer` part, read by the model as the person's message at that place; an "after-reply" message (and a
// steer the reply ended before taking) becomes the next turn when the reply settles, one turn per message, in order.
// Every take is a conditional update, so of two tabs, instances or settles racing for a message one gets it.
import { generateId } from "ai";
import { ApiError } from "../api/errors.ts";
import type { ChatChunk, SteerData } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import {
  conversationsWithQueued,
  firstQueued,
  markDelivered,
  type QueuedMessageRow,
  requeueTaken,
  takeQueued,
  untake,
} from "../db/queued-messages.ts";
import type { QueuedSteer } from "../db/step-state.ts";
import { log, logFailure } from "../log/logger.ts";
import { listenForDisabledUsers, refuseIfDisabled } from "./disabled-users.ts";
import { isDraining } from "./draining.ts";
import { publishChange } from "./live/event-bus.ts";
import { replyLock } from "./live/reply-lock.ts";
import type { PersonMessage } from "./record-turn.ts";

/** Starts a turn as POST /api/chat does (lib/chat/start-reply.ts's startReply, passed in: it calls back here). */
export type StartTurn = (turn: {
  request: { id: string; message: PersonMessage };
  replyId: string;
}) => Promise<Response>;

type SteerChunk = Extract<ChatChunk, { type: "data-steer" }>;

const partsOf = (message: unknown): SteerData["parts"] => {
  const parts = (message as { parts?: unknown } | null)?.parts;
  return Array.isArray(parts) ? (parts as SteerData["parts"]) : [];
};

/**
 * Takes the queued steers a step read for reply `replyId`, as the chunks that add them to the reply (before the step's
 * hints). A steer cancelled or taken meanwhile is left out.
 */
export async function takeSteers(
  conversationId: string,
  replyId: string,
  steers: QueuedSteer[],
  now: Date,
): Promise<SteerChunk[]> {
  const taken = await takeQueued({ conversationId, ids: steers.map((s) => s.id), replyId });
  if (taken.length) publishChange({ type: "conversation", id: conversationId });
  return taken.map((row) => ({
    type: "data-steer",
    id: row.id,
    data: {
      messageId: String((row.message as { id?: unknown } | null)?.id ?? row.id),
      parts: partsOf(row.message),
      queuedAt: row.createdAt.toISOString(),
      createdAt: now.toISOString(),
    },
  }));
}

/** What a reply took is delivered once its row is saved: a step's end (checkpoint) or the reply's settle. */
export async function steersSaved(conversationId: string, replyId: string): Promise<void> {
  await markDelivered({ conversationId, replyId });
}

/**
 * A resumed reply's steers: those its kept parts hold stay its own (delivered when it saves or settles); those taken
 * by the step the stopped process cut go back to the queue, where the reply's next step takes them again.
 */
export async function requeueCutSteers(
  conversationId: string,
  replyId: string,
  kept: readonly { type: string; id?: string }[],
): Promise<void> {
  const saved = kept.flatMap((part) => (part.type === "data-steer" && part.id ? [part.id] : []));
  if (await requeueTaken({ conversationId, replyId, saved }))
    publishChange({ type: "conversation", id: conversationId });
}

/** The queued message taken: the turn it started, or why it could not start one. */
export type Delivered = { id: string; replyId: string } | { id: string; refused: unknown };

/**
 * Starts the conversation's first queued message as the next turn, when no reply holds the conversation. The message
 * is taken first (so no one else starts it); a turn refused because a reply is live puts it back, one refused for
 * any other reason (its model gone, the owner disabled, a failed write) drops it, with a warning.
 */
export async function deliverNext(conversationId: string, start: StartTurn): Promise<Delivered | undefined> {
  if (isDraining()) return undefined;
  const next = await firstQueued({ conversationId });
  if (!next) return undefined;
  const replyId = generateId();
  const [taken] = await takeQueued({ conversationId, ids: [next.id], replyId });
  if (!taken) return undefined;
  try {
    await refuseForDisabledOwner(conversationId);
    const response = await start({ request: { id: conversationId, message: messageOf(taken) }, replyId });
    // Nobody follows this answer: the reply runs on, and every tab follows it through GET …/stream.
    await response.body?.cancel().catch(() => {});
  } catch (error) {
    // Busy: another reply holds the conversation (or the server drains). A 409 of the turn's own (a message id the
    // conversation already has), even one its own failed start still holds the lock for, is a refusal like any other.
    const holder =
      error instanceof ApiError && error.code === "conflict" ? await replyLock().live(conversationId) : undefined;
    const busy =
      error instanceof ApiError &&
      (error.code === "unavailable" || (holder !== undefined && holder.replyId !== replyId));
    if (!busy)
      log().warn({ conversationId, queuedId: taken.id, err: error }, "a queued message could not start a turn");
    // Put back only when a reply is live (its end delivers it): anything else would fail again at every settle.
    await untake({ conversationId, id: taken.id, status: busy ? "queued" : "cancelled" });
    publishChange({ type: "conversation", id: conversationId });
    return { id: taken.id, refused: error };
  }
  await markDelivered({ conversationId, replyId });
  return { id: taken.id, replyId };
}

/** A queued message's person message, with its id as the client sent it. */
function messageOf(row: QueuedMessageRow): PersonMessage {
  const message = row.message as { id?: unknown };
  return {
    id: typeof message.id === "string" ? message.id : row.id,
    role: "user",
    parts: partsOf(row.message) as PersonMessage["parts"],
  };
}

/** A delivered turn is the server's own, for the conversation's owner: refused like theirs when they were disabled. */
async function refuseForDisabledOwner(conversationId: string): Promise<void> {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation) throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  if (conversation.ownerId) {
    await listenForDisabledUsers();
    refuseIfDisabled(conversation.ownerId);
  }
}

/**
 * A reply settled and released its conversation: what it took is delivered, and (not for a subagent's reply, whose
 * conversation has no queue) the first queued message becomes the next turn. Runs after the stream ended; never throws.
 */
export function afterReplySettled(
  conversationId: string,
  replyId: string,
  { child, start }: { child: boolean; start: StartTurn },
): void {
  void (async () => {
    await steersSaved(conversationId, replyId);
    if (!child) await deliverNext(conversationId, start);
  })().catch(logFailure("delivering the queue after a reply failed", { conversationId, replyId }));
}

/** Conversations looked at per sweep: the queues a stopped instance left are few. */
const SWEEP_LIMIT = 100;

/**
 * Starts the next turn of every conversation whose queue waits with no reply running: what a reply that ended while
 * its instance drained, or whose instance then stopped, left behind. How many turns started.
 */
export async function deliverLeftQueues(start: StartTurn): Promise<number> {
  let started = 0;
  for (const conversationId of await conversationsWithQueued(SWEEP_LIMIT)) {
    if (isDraining()) break;
    if (await replyLock().live(conversationId)) continue;
    const delivered = await deliverNext(conversationId, start);
    if (delivered && "replyId" in delivered) started++;
  }
  return started;
}
