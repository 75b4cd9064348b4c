// Token counts of model messages (the context figure is built from them; see lib/chat/context-usage.ts).
import type { ModelMessage } from "ai";
import { IMAGE_TOKEN_ESTIMATE } from "./attachments.ts";
import { countTokens } from "./token-count.ts";

/**
 * What a model call reported, as older conversations stored it. No longer read: provider reports are not mixed into
 * the context figure.
 */
export type LastCallUsage = { inputTokens: number; outputTokens: number; messageCount: number };

/** Per-message framing the chat formats add around content (role markers, separators). */
const MESSAGE_OVERHEAD = 4;

export function countModelMessageTokens(messages: readonly ModelMessage[]): number {
  let total = 0;
  for (const message of messages) {
    total += MESSAGE_OVERHEAD;
    if (typeof message.content === "string") {
      total += countTokens(message.content);
      continue;
    }
    for (const part of message.content) {
      if (part.type === "text") total += countTokens(part.text);
      else if (part.type === "tool-call") total += countTokens(`${part.toolName}${JSON.stringify(part.input)}`);
      else if (part.type === "tool-result") total += countTokens(JSON.stringify(part.output));
      // An image is a fixed estimate (providers count images by their size in tiles, not by their bytes).
      else if (part.type === "file" || part.type === "image") total += IMAGE_TOKEN_ESTIMATE;
    }
  }
  return total;
}
