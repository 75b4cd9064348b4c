// The demo model's Continue: when its input ends with the reminder to go on (lib/agent/continue-reply.ts), it works
// out the whole answer to the person's message again (the same input gives the same answer) and writes the words it
// had not yet written, so "write 300 words about rivers", stopped at word 40, goes on from word 41.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { CONTINUE_REMINDER } from "../agent/continue-reply.ts";

const textOf = (message: LanguageModelV4Prompt[number]): string =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((p) => (p.type === "text" ? p.text : "")).join("");

const words = (text: string): string[] => text.split(/\s+/).filter(Boolean);

/** The prompt without the continuation (up to the person's message) and what the reply had said, or undefined. */
export function continuation(
  prompt: LanguageModelV4Prompt,
): { before: LanguageModelV4Prompt; written: string } | undefined {
  const last = prompt.at(-1);
  if (last?.role !== "user" || textOf(last) !== CONTINUE_REMINDER) return undefined;
  // The reply so far: the assistant messages after the person's last own message (reminders are not theirs).
  let at = prompt.length - 2;
  const said: string[] = [];
  for (; at >= 0; at--) {
    const message = prompt[at]!;
    if (message.role === "assistant") said.unshift(textOf(message));
    else if (message.role === "user" && !textOf(message).trimStart().startsWith("<system-reminder>")) break;
  }
  if (at < 0) return undefined;
  return { before: prompt.slice(0, at + 1), written: said.join(" ") };
}

/** The rest of `full` after the words `written` already holds (all of it when they do not match its start). */
export function remainder(full: string, written: string): string {
  const done = words(written);
  const all = words(full);
  const matches = done.length <= all.length && done.every((w, i) => all[i] === w);
  return matches ? all.slice(done.length).join(" ") : full;
}
