// POST /compact: compress the conversation's model context now. The compression shows in the transcript as a
// divider message at the end (the visible history stays as it is). A compression that cannot make the context
// smaller (nothing outside the reserve, or a summary no smaller than what it replaces) is not stored: the answer says
// so and nothing changes.
import { refuseOverBudget } from "./budgets.ts";
import type { Viewer } from "../auth/viewer.ts";
import { markConversationMcpToolsStale } from "../db/conversation-mcp-tools.ts";
import { generateId } from "ai";
import { keepBudgetOf, settleCompression } from "../agent/compression-hold.ts";
import { resolveSettings } from "../agent/settings.ts";
import { modelForConversation, utilityModelFor } from "./conversation-model.ts";
import { ApiError } from "../api/errors.ts";
import type { ChatMessage, CompressionData, ContextUsage } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { appendMessage, listMessages } from "../db/messages.ts";
import { replyLock } from "./live/reply-lock.ts";
import { parseAgentState, patchAgentState } from "./agent-state.ts";
import { compressContext } from "./compression.ts";
import { conversationMcpToolTokens } from "./mcp-tool-tokens.ts";
import { contextWindowFor, measureContext } from "./context-measure.ts";
import { conversationFixedPart, fixedOf } from "./fixed-part.ts";
import { refreshWorkspaceView } from "./workspace-view.ts";
import { meteredModel } from "./usage-meter.ts";

export const NOTHING_OUTSIDE_RESERVE = "Nothing to compress yet: the conversation already fits in the reserve.";
export const NO_SMALLER_SUMMARY =
  "Nothing to compress yet: a summary would not be smaller than the messages it replaces.";

export type CompactResult =
  | { compressed: false; message: string }
  | { compressed: true; compression: CompressionData; message: ChatMessage; contextUsage: ContextUsage };

export async function compactNow(conversationId: string, viewer: Viewer): Promise<CompactResult> {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation) throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  if (await replyLock().live(conversationId))
    throw new ApiError("conflict", "A reply is being written; compress after it finishes.");
  // The summary is a model call of the person's.
  await refuseOverBudget(viewer);
  const settings = resolveSettings(conversation.settings);
  const conversationModel = modelForConversation(conversation.model);
  const { info } = conversationModel;
  // Summaries are written by the utility model (HINTLINE_UTILITY_MODEL), else the conversation's own.
  const { model } = meteredModel(utilityModelFor(conversationModel), conversation.ownerId);
  const [history, mcpTools] = await Promise.all([
    listMessages({ conversationId }),
    conversationMcpToolTokens(conversationId),
  ]);
  const { compression } = parseAgentState(conversation.agentState);
  const contextWindow = contextWindowFor(settings, conversation.model);
  const fixed = fixedOf(await conversationFixedPart(conversationId, settings, conversation.model));
  const before = measureContext({ settings, history, compression, ...fixed, contextWindow, mcpTools });
  // Computed, compared, and only then stored.
  const result = await compressContext({
    conversationId,
    model,
    settings,
    contextWindow,
    history,
    state: compression,
    tokensBefore: before.inputTokens,
    keepTokens: keepBudgetOf(before, settings.context),
    commit: false,
  });
  if (!result) return { compressed: false, message: NOTHING_OUTSIDE_RESERVE };
  const after = measureContext({ settings, history, compression: result.state, ...fixed, contextWindow, mcpTools });
  if (after.inputTokens >= before.inputTokens) return { compressed: false, message: NO_SMALLER_SUMMARY };
  if (await replyLock().live(conversationId))
    throw new ApiError("conflict", "A reply started meanwhile; compress after it finishes.");
  // The person asked: never held back. What it left is kept, so that the automatic one after it waits for growth.
  const settled = settleCompression(result.state, after, settings.context);
  await patchAgentState(conversationId, { compression: settled.state, lastCall: undefined });
  await markConversationMcpToolsStale({ conversationId });
  const memory = await result.remember?.();
  // The system prompt takes in the workspace as it is now (what changed reached the agent as hints until here).
  await refreshWorkspaceView(conversationId);
  const fixedAfter = fixedOf(await conversationFixedPart(conversationId, settings, conversation.model));
  const data: CompressionData = {
    ...result.data,
    tokensBefore: before.inputTokens,
    tokensAfter: after.inputTokens,
    ...(memory ? { memory } : {}),
    ...(settled.stuck ? { stuck: settled.stuck } : {}),
  };
  const message = await appendMessage({
    conversationId,
    message: {
      id: generateId(),
      role: "assistant",
      parts: [{ type: "data-compression", id: `compression-${data.createdAt}`, data }],
      metadata: { model: info.id },
    },
  });
  return {
    compressed: true,
    compression: data,
    message,
    contextUsage: measureContext({
      settings,
      history: [...history, message],
      compression: settled.state,
      ...fixedAfter,
      contextWindow,
      mcpTools,
    }),
  };
}
