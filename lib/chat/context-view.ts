// What the next model call of a conversation would receive, for the inspector and GET /api/conversations/:id/context:
// the assembled system prompt (section by section), every message as the model gets it (hints included, or
// previewed without), the tool names, and the usage figures.
import type { ModelMessage } from "ai";
import { countModelMessageTokens } from "../agent/context-usage.ts";
import { resolveSettings } from "../agent/settings.ts";
import { countTokens } from "../agent/token-count.ts";
import { toModelMessages } from "../agent/to-model-messages.ts";
import { currentModel } from "../ai/providers.ts";
import { TOOL_NAMES } from "../ai/tools/index.ts";
import { ApiError } from "../api/errors.ts";
import type { ChatMessage } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { listMessages } from "../db/messages.ts";
import { systemPromptFor } from "./system-prompt.ts";

const withoutHints = (messages: ChatMessage[]): ChatMessage[] =>
  messages.map((m) => ({ ...m, parts: m.parts.filter((p) => p.type !== "data-hint") }));

export async function getContextView(id: string, { hints = true }: { hints?: boolean } = {}) {
  const conversation = await getConversation({ id });
  if (!conversation) throw new ApiError("not_found", `Conversation ${id} does not exist.`);
  const settings = resolveSettings(conversation.settings);
  const prompt = systemPromptFor(settings);
  const stored = await listMessages({ conversationId: id });
  const messages: ModelMessage[] = toModelMessages(hints ? stored : withoutHints(stored));
  const messageTokens = messages.map((m) => countModelMessageTokens([m]));
  const contextWindow = settings.context.contextWindow ?? currentModel().info.contextWindow;
  const inputTokens = countTokens(prompt.text) + messageTokens.reduce((a, b) => a + b, 0);
  return {
    system: prompt.text,
    sections: prompt.sections.map(({ id: sectionId, title, origin, tokens, text }) => ({ id: sectionId, title, origin, tokens, text })),
    messages,
    messageTokens,
    tools: [...TOOL_NAMES],
    usage: {
      inputTokens,
      contextWindow,
      triggerTokens: Math.floor(settings.context.triggerRatio * contextWindow),
      bufferStartTokens: Math.floor(Math.max(0, settings.context.triggerRatio - settings.injection.contextBufferRatio) * contextWindow),
    },
  };
}
