// The demo model's answer about a state source (issue 48): "what is the status of deploy?" is answered from the
// newest State reminder for that source in its input, as "what time is it?" is from the newest time hint; told the
// source is unavailable, it says so; told nothing, it says it was not told.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { unescapeValue } from "../agent/hints/render-hint.ts";

const QUESTION =
  /^what(?:'s| is) the ([A-Za-z_][A-Za-z0-9_.-]*) of (?:the )?([a-z0-9]+(?:-[a-z0-9]+)*)(?: source)?\s*\??$/i;

const textOf = (message: LanguageModelV4Prompt[number]): string =>
  typeof message.content === "string"
    ? message.content
    : message.content.map((part) => (part.type === "text" ? part.text : "")).join("");

/**
 * The answer to a question about a state source's field (`told`: from a State reminder in the input), or undefined
 * when the person asked something else.
 */
export function stateAnswer(prompt: LanguageModelV4Prompt, said: string): { text: string; told: boolean } | undefined {
  const match = QUESTION.exec(said.trim());
  if (!match) return undefined;
  const [, field, source] = match as unknown as [string, string, string];
  const open = `<state source="${source.toLowerCase()}"`;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const message = prompt[i]!;
    if (message.role !== "user") continue;
    const text = textOf(message);
    if (!text.trimStart().startsWith("<system-reminder>") || !text.includes(open)) continue;
    const since = new RegExp(`${open} unavailable-since="([^"]+)"`).exec(text);
    if (since)
      return { told: true, text: `The newest state reminder says ${source} is unavailable since ${since[1]}.` };
    const value = new RegExp(`<${field}(?: changed="true")?>([\\s\\S]*?)</${field}>`).exec(text);
    const answer = value
      ? `According to the newest state reminder, the ${field} of ${source} is ${unescapeValue(value[1]!)}.`
      : `The newest state reminder for ${source} has no field ${field}.`;
    return { told: true, text: answer };
  }
  const untold = `I haven't been told the state of ${source} in this conversation, so I can't say its ${field}.`;
  return { told: false, text: untold };
}
