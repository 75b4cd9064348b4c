// The stored history as model messages, converted once per message object: with the history cache, a reply in a
// long conversation converts only what is new since the last one.
import type { ModelMessage } from "ai";
import { toModelMessages } from "../agent/to-model-messages.ts";
import type { ChatMessage } from "../chat-message.ts";

const converted = new WeakMap<ChatMessage, ModelMessage[]>();

export function modelMessagesOf(messages: readonly ChatMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  for (const message of messages) {
    let model = converted.get(message);
    if (!model) {
      model = toModelMessages([message]);
      // A streaming reply still changes; settled messages do not.
      if (message.metadata?.status !== "streaming") converted.set(message, model);
    }
    for (const m of model) out.push(m);
  }
  return out;
}
