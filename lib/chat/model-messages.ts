// The stored history as model messages, converted once per message object: with the history cache, a reply in a
// long conversation converts only what is new since the last one.
import type { ModelMessage } from "ai";
import { toModelMessages } from "../agent/to-model-messages.ts";
import type { ChatMessage } from "../chat-message.ts";
import { historyFold } from "./history-fold.ts";

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

/** A conversation's messages, converted; the part seen on the last turn is not looked up again. */
const convertedOf = historyFold(convertOnce);

export function modelMessagesOf(messages: readonly ChatMessage[]): ModelMessage[] {
  const out: ModelMessage[] = [];
  // A lone message (a token count) is not a history: folding it would cut back its conversation's fold.
  for (const model of messages.length > 1 ? convertedOf(messages) : messages.map(convertOnce)) {
    for (const m of model) out.push(m);
  }
  return out;
}
