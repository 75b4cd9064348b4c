// How big the next model input is: the provider-reported input tokens of the last call, plus that call's output,
// plus a tokenizer count of only what was added since — so the work does not grow with the conversation.
// With no report yet, the tokenizer counts everything once.
import type { ModelMessage } from "ai";
import type { ChatMessage } from "../chat-message.ts";
import { toModelMessages } from "./to-model-messages.ts";
import { countTokens } from "./token-count.ts";

/** What the last model call of the previous reply reported, and how many stored messages its input covered. */
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
    }
  }
  return total;
}

export function estimateInputTokens({
  system,
  messages,
  last,
}: {
  system: string;
  /** The stored messages the next call will send (the person's new message included). */
  messages: readonly ChatMessage[];
  last?: LastCallUsage;
}): number {
  if (last && last.messageCount <= messages.length && last.inputTokens > 0) {
    const added = toModelMessages(messages.slice(last.messageCount));
    return last.inputTokens + last.outputTokens + countModelMessageTokens(added);
  }
  return countTokens(system) + countModelMessageTokens(toModelMessages(messages));
}
