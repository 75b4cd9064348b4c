// The stored history as model messages, converted once per message object: with the history cache, a reply in a
// long conversation converts only what is new since the last one.
import type { ModelMessage } from "ai";
import { toModelMessages } from "../agent/to-model-messages.ts";
import type { ChatMessage } from "../chat-message.ts";
import { historyFlat } from "./history-fold.ts";

const converted = new WeakMap<ChatMessage, ModelMessage[]>();

function convertOnce(message: ChatMessage): ModelMessage[] {
  let model = converted.get(message);
  if (!model) {
    model = toModelMessages([message]);
    // A streaming reply still changes; settled messages do not.
    if (message.metadata?.status !== "streaming") converted.set(message, model);
  }
  return model;
}

/** A conversation's messages, converted; the part seen on the last turn is neither looked up nor copied piecemeal again. */
const convertedOf = historyFlat(convertOnce);

export function modelMessagesOf(messages: readonly ChatMessage[]): ModelMessage[] {
  // A lone message (a token count) is not a history: folding it would cut back its conversation's fold.
  return messages.length > 1 ? convertedOf(messages) : messages.flatMap(convertOnce);
}
