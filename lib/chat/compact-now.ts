// POST /compact: compress the conversation's model context now. The compression shows in the transcript as a
// divider message at the end (the visible history stays as it is).
import { generateId } from "ai";
import { resolveSettings } from "../agent/settings.ts";
import { currentModel } from "../ai/providers.ts";
import { ApiError } from "../api/errors.ts";
import type { CompressionData } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { appendMessage, listMessages } from "../db/messages.ts";
import { activeReply } from "./active-replies.ts";
import { parseAgentState } from "./agent-state.ts";
import { prepareContext } from "./prepare-context.ts";
import { systemPromptFor } from "./system-prompt.ts";

export async function compactNow(conversationId: string): Promise<{ compressed: boolean; compression?: CompressionData }> {
  const conversation = await getConversation({ id: conversationId });
  if (!conversation) throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  if (activeReply(conversationId)) throw new ApiError("conflict", "A reply is being written; compress after it finishes.");
  const settings = resolveSettings(conversation.settings);
  const { model, info } = currentModel();
  const history = await listMessages({ conversationId });
  const context = await prepareContext({
    conversationId,
    model,
    settings,
    contextWindow: settings.context.contextWindow ?? info.contextWindow,
    system: systemPromptFor(settings).text,
    history,
    agentState: parseAgentState(conversation.agentState),
    force: true,
  });
  const chunk = context.prelude[0];
  if (chunk?.type !== "data-compression") return { compressed: false };
  await appendMessage({
    conversationId,
    message: { id: generateId(), role: "assistant", parts: [{ type: "data-compression", id: chunk.id, data: chunk.data }], metadata: { model: info.id } },
  });
  return { compressed: true, compression: chunk.data };
}
