// Cancel on one running tool call (an MCP call that takes too long): that call ends with a tool error the model
// reads, and the reply goes on. It works from any tab, and on PostgreSQL from any instance.
import { ApiError } from "../api/errors.ts";
import { getConversation } from "../db/conversations.ts";
import { replyLock } from "./live/reply-lock.ts";

export type CancelAnswer = { cancelled: true } | { requested: true };

export async function cancelToolCall(conversationId: string, toolCallId: string): Promise<CancelAnswer> {
  if (!(await getConversation({ id: conversationId })))
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  const outcome = await replyLock().cancelToolCall(conversationId, toolCallId);
  if (outcome === "cancelled") return { cancelled: true };
  if (outcome === "sent") return { requested: true };
  throw new ApiError(
    "conflict",
    `Tool call ${toolCallId} is not running in conversation ${conversationId} (it ended, or it was never started).`,
  );
}
