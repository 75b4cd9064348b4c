// A first guess at a message's rendered height, before it is measured: close guesses keep the scrollbar steady and
// let a long conversation open at its end in one frame. Pure and deterministic (the server renders the same rows).
import type { ChatMessage } from "@/lib/chat-message";

const LINE = 26;
const CHARS_PER_LINE = 80;

function textLines(text: string): number {
  let lines = 0;
  for (const line of text.split("\n")) lines += Math.max(1, Math.ceil(line.length / CHARS_PER_LINE));
  return lines;
}

export function estimateMessageHeight(message: ChatMessage | undefined): number {
  if (!message) return 60;
  let height = message.role === "user" ? 20 : 8;
  for (const part of message.parts) {
    if (part.type === "text") height += textLines(part.text) * LINE;
    else if (part.type === "data-hint" || part.type === "data-compression" || part.type.startsWith("tool-"))
      height += 40;
    else if (part.type === "data-steer") height += 60;
    // A compression that could not get under the trigger carries its notice (a heading, a paragraph, three advices).
    if (part.type === "data-compression" && part.data.stuck) height += 8 * LINE;
  }
  return Math.max(height, 40);
}
