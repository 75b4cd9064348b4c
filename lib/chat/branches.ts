// Branches for the API and the chat: editing an earlier person message keeps what followed it as an alternative, and
// the person switches between alternatives (‹ n/N ›). The model context follows the active alternative; the one place
// where a call's input may diverge from the previous call's, which the cache-break detector names "branch".
import type { ArchivedBranch } from "../agent/branches.ts";
import { ApiError } from "../api/errors.ts";
import {
  type BranchFailure,
  branchForEdit,
  branchForRetry,
  finishBranchMove,
  hasUnfinishedBranchMove,
  type StateMove,
  switchBranch,
} from "../db/branches.ts";
import { getConversation } from "../db/conversations.ts";
import { findMessagePosition } from "../db/messages.ts";
import { generateId } from "ai";
import { parseAgentState } from "./agent-state.ts";
import { replyLock } from "./live/reply-lock.ts";

/**
 * The harness state across a branch operation: a compression that summarised archived messages goes with them (and
 * one the restored alternative carried comes back); the last call's figures no longer describe the context; the
 * branch counter moves, so the next call's divergence is attributed to the branch.
 */
export const moveBranchState: StateMove = {
  // The one message the move depends on: where the stored compression's kept tail starts.
  watched: (stored) => {
    const { compression } = parseAgentState(stored);
    return compression ? [compression.keptFromId] : [];
  },
  move: (stored, archivedIds, restored?: ArchivedBranch) => moveState(stored, archivedIds, restored),
};

function moveState(stored: unknown, archivedIds: ReadonlySet<string>, restored?: ArchivedBranch) {
  const state = parseAgentState(stored);
  const { compression } = state;
  const carried = compression && archivedIds.has(compression.keptFromId) ? compression : undefined;
  const restoredCompression =
    restored?.compression === undefined
      ? undefined
      : parseAgentState({ compression: restored.compression }).compression;
  const next = {
    ...state,
    compression: restoredCompression ?? (carried ? undefined : compression),
    lastCall: undefined,
    branchEpoch: (state.branchEpoch ?? 0) + 1,
  };
  for (const key of Object.keys(next) as Array<keyof typeof next>) if (next[key] === undefined) delete next[key];
  return { state: next, carried };
}

/**
 * A regenerated reply's move: the new reply's input is a prefix of the last call's (the person's message stays), so
 * the last call stays the baseline and the break is named "retry"; only a compression that goes with the archived
 * reply makes it a full branch move.
 */
const moveRetryState: StateMove = {
  watched: moveBranchState.watched,
  move: (stored, archivedIds, restored) => {
    const moved = moveState(stored, archivedIds, restored);
    return moved.carried ? moved : { state: parseAgentState(stored) };
  },
};

function failure(kind: BranchFailure, what: string): ApiError {
  if (kind === "not-person")
    return new ApiError(
      "bad_request",
      `${what} is not a message of yours; only your own messages can be edited.`,
      "editOf",
    );
  return new ApiError(
    "not_found",
    `${what} does not exist in this conversation.`,
    kind === "no-message" ? "editOf" : undefined,
  );
}

/**
 * Refuses, before anything is archived, an edit whose turn could not be opened: the edited message must be the
 * person's, and the new message's id must not be one the kept history (what precedes the edited message) uses.
 */
export async function checkEdit(conversationId: string, messageId: string, newMessageId: string): Promise<void> {
  const edited = await findMessagePosition({ conversationId, id: messageId });
  if (!edited) throw failure("no-message", `Message ${messageId}`);
  if (edited.role !== "user") throw failure("not-person", `Message ${messageId}`);
  if (newMessageId === messageId) return;
  const used = await findMessagePosition({ conversationId, id: newMessageId });
  if (used && used.position < edited.position) {
    throw new ApiError(
      "conflict",
      `Message id ${newMessageId} is already used by an earlier message of this conversation; send the edited message with a new id. Nothing was changed.`,
    );
  }
}

/** Archives the person's message `messageId` and what followed it as an alternative, ahead of its edited version. */
export async function branchForEditedMessage(conversationId: string, messageId: string): Promise<void> {
  const result = await branchForEdit({ conversationId, messageId, move: moveBranchState });
  if (typeof result === "string") throw failure(result, `Message ${messageId}`);
}

/**
 * Archives what follows the person's latest message `messageId` (the reply being regenerated) as an alternative, so
 * that the new reply and the earlier one are versions ‹ n/N › of each other, as an edit's are.
 */
export async function branchForRetriedReply(conversationId: string, messageId: string): Promise<void> {
  const result = await branchForRetry({ conversationId, messageId, move: moveRetryState });
  if (typeof result === "string") throw failure(result, `Message ${messageId}`);
}

/** Makes the alternative `ordinal` after `anchorId` the active one. */
export async function switchConversationBranch(
  conversationId: string,
  anchorId: string,
  ordinal: number,
): Promise<void> {
  if (!(await getConversation({ id: conversationId })))
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  // Held like a reply's lock for the switch, so that no reply (on any instance) starts from a half-switched history.
  const holder = `branch-switch-${generateId()}`;
  if (!(await replyLock().acquire(conversationId, holder))) {
    throw new ApiError("conflict", "A reply is being written; switch branches after it finishes.");
  }
  let result: Awaited<ReturnType<typeof switchBranch>>;
  try {
    result = await switchBranch({ conversationId, anchorId, ordinal, move: moveBranchState });
  } finally {
    await replyLock().release(conversationId, holder);
  }
  if (result === "no-message" || result === "not-person" || result === "no-branch") {
    throw failure(result, `Alternative ${ordinal} after ${anchorId ? `message ${anchorId}` : "the start"}`);
  }
}

/**
 * Finishes an edit or switch of the conversation that a dying server cut short (its rows part moved). One running now
 * holds the reply lock, and is left alone.
 */
export async function finishInterruptedBranchMove(conversationId: string): Promise<void> {
  if (!(await hasUnfinishedBranchMove({ conversationId }))) return;
  const holder = `branch-finish-${generateId()}`;
  if (!(await replyLock().acquire(conversationId, holder))) return;
  try {
    await finishBranchMove({ conversationId, move: moveBranchState });
  } finally {
    await replyLock().release(conversationId, holder);
  }
}
