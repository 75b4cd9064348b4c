// The stored history as model messages, converted once per message object: with the history cache, a reply in a
// long conversation converts only what is new since the last one. Conversions under different options (timestamps
// on or off, another zone) are kept apart.
import type { ModelMessage } from "ai";
import { isValidTimeZone, type Settings } from "../agent/settings.ts";
import { type ConvertOptions, convertKey, toModelMessages } from "../agent/to-model-messages.ts";
import type { ChatMessage } from "../chat-message.ts";
import { historyFlat } from "./history-fold.ts";

/** How a conversation's messages are converted under its settings. */
export function convertOptionsFor(settings: Settings): ConvertOptions | undefined {
  const { timestamps, timezone } = settings.injection;
  return timestamps ? { timestamps: { zone: isValidTimeZone(timezone) ? timezone : "UTC" } } : undefined;
}

type Converter = {
  convertOnce: (message: ChatMessage) => ModelMessage[];
  convertedOf: (history: readonly ChatMessage[]) => ModelMessage[];
};
const converters = new Map<string, Converter>();

function converterFor(options: ConvertOptions | undefined): Converter {
  const key = convertKey(options);
  let converter = converters.get(key);
  if (converter) return converter;
  const converted = new WeakMap<ChatMessage, ModelMessage[]>();
  const convertOnce = (message: ChatMessage) => {
    let model = converted.get(message);
    if (!model) {
      model = toModelMessages([message], options);
      // A streaming reply still changes; settled messages do not.
      if (message.metadata?.status !== "streaming") converted.set(message, model);
    }
    return model;
  };
  // A conversation's messages, converted; the part seen on the last turn is neither looked up nor copied piecemeal again.
  converter = { convertOnce, convertedOf: historyFlat(convertOnce) };
  // Options change only when a person edits settings; a handful of zones is all a server sees.
  if (converters.size >= 16) converters.delete(converters.keys().next().value as string);
  converters.set(key, converter);
  return converter;
}

export function modelMessagesOf(messages: readonly ChatMessage[], options?: ConvertOptions): ModelMessage[] {
  const { convertOnce, convertedOf } = converterFor(options);
  // A lone message (a token count) is not a history: folding it would cut back its conversation's fold.
  return messages.length > 1 ? convertedOf(messages) : messages.flatMap(convertOnce);
}
