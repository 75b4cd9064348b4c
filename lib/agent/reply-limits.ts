// The limits of one reply and how a call that ended early is described: the character ceiling (chunks counted and the
// last one cut to fit), the output-token ceiling, and a provider whose answer was not a finished stream.
import type { ChatChunk } from "../chat-message.ts";
import { operatorNote } from "../operator-words.ts";

/** How many characters a chunk adds to the reply, and the chunk cut down to `room` characters (undefined: nothing fits). */
export function streamedChars(chunk: ChatChunk): number {
  if (chunk.type === "text-delta" || chunk.type === "reasoning-delta") return chunk.delta.length;
  if (chunk.type === "tool-input-delta") return chunk.inputTextDelta.length;
  return 0;
}

export function cutChunk(chunk: ChatChunk, room: number): ChatChunk | undefined {
  if (room <= 0 || (chunk.type !== "text-delta" && chunk.type !== "reasoning-delta")) return undefined;
  // Never between the two halves of a surrogate pair.
  const end = /[\uD800-\uDBFF]/.test(chunk.delta[room - 1] ?? "") ? room - 1 : room;
  return end > 0 ? { ...chunk, delta: chunk.delta.slice(0, end) } : undefined;
}

const formatCount = (n: number) => n.toLocaleString("en-US");

/**
 * Why a call that raised no error still cannot be trusted as a finished reply: the provider answered with something
 * other than an event stream (an HTML page, a JSON body), or its stream ended without a finish reason.
 */
export function untrustedEnd(finishReason: string | undefined, contentType: string | undefined): string | undefined {
  if (finishReason !== "interrupted") return undefined;
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  if (type && type !== "text/event-stream") {
    return `The model provider answered with ${type} instead of a stream of the reply.${operatorNote(" Check that OPENAI_BASE_URL points at its API, then try again.", ` Try again later; if it goes on, tell whoever runs this Hintline server.`)}`;
  }
  return "The model provider's stream ended without saying the reply was finished, so it may be cut short. Try again.";
}

export function charLimitReason(maxChars: number): string {
  return `The reply reached its ${formatCount(maxChars)}-character limit and was stopped.`;
}

export function tokenLimitReason(maxOutputTokens: number | undefined): string {
  return maxOutputTokens
    ? `The reply reached its ${formatCount(maxOutputTokens)}-token limit and was stopped.`
    : "The reply reached the model's output limit and was stopped.";
}
