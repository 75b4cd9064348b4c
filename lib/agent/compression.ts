// Context compression (AgentScope ContextConfig semantics): when the next input reaches triggerRatio × window, keep
// the newest messages that fit in reserveRatio × window and summarise the rest, with the previous summary, into five
// sections. Pure: the summariser and the clock are passed in by the caller.
import type { ModelMessage } from "ai";
import { neutralizeHintTags } from "./hints/neutralize-tags.ts";

export const SUMMARY_SECTIONS = ["Task Overview", "Current State", "Important Discoveries", "Next Steps", "Context to Preserve"] as const;

export const COMPRESSION_REQUEST_MARKER = "Summarize the conversation below into exactly these five sections";

/** Inclusive: compression fires when the input reaches the trigger. */
export function shouldCompress(inputTokens: number, triggerRatio: number, contextWindow: number): boolean {
  return inputTokens >= triggerRatio * contextWindow;
}

/**
 * Splits items (stored messages, oldest first) into those to summarise and the newest ones to keep, keeping as many
 * as fit in `reserveTokens`. The newest item is always kept (it is what the model must answer). Items are whole
 * messages, so a tool call is never separated from its result.
 */
export function splitForCompression<T>(items: readonly T[], tokensOf: (item: T) => number, reserveTokens: number) {
  let used = 0;
  let start = items.length;
  while (start > 0) {
    const next = tokensOf(items[start - 1]!);
    if (start < items.length && used + next > reserveTokens) break;
    used += next;
    start--;
  }
  return { summarize: items.slice(0, start), keep: items.slice(start), keptTokens: used };
}

function line(message: ModelMessage): string {
  const role = message.role === "user" ? "User" : message.role === "assistant" ? "Assistant" : message.role === "tool" ? "Tool" : "System";
  if (typeof message.content === "string") return `${role}: ${message.content}`;
  const parts = message.content.map((part) => {
    if (part.type === "text") return part.text;
    if (part.type === "tool-call") return `[calls ${part.toolName} ${JSON.stringify(part.input)}]`;
    if (part.type === "tool-result") {
      const value = (part.output as { value?: unknown }).value;
      return `[${part.toolName} result: ${typeof value === "string" ? value : JSON.stringify(value)}]`;
    }
    return "";
  });
  return `${role}: ${parts.join(" ")}`;
}

export function transcript(messages: readonly ModelMessage[]): string {
  return messages.map(line).join("\n");
}

/** The request to the summariser, with the current time filled in (AgentScope leaves `{current_time}` literal). */
export function compressionPrompt({ previousSummary, messages, now }: { previousSummary?: string; messages: readonly ModelMessage[]; now: string }): string {
  return [
    `${COMPRESSION_REQUEST_MARKER}, as Markdown headings: ${SUMMARY_SECTIONS.map((s) => `## ${s}`).join(", ")}.`,
    `The current time is ${now}. Keep facts, decisions, names, numbers, file paths and open tasks; drop chit-chat.`,
    previousSummary ? `\n<previous-summary>\n${previousSummary}\n</previous-summary>` : "",
    `\n<conversation>\n${transcript(messages)}\n</conversation>`,
  ].join("\n");
}

export const SUMMARIZER_INSTRUCTIONS = "You compress chat histories into faithful, compact summaries for another assistant to continue from.";

export function truncationSummary(count: number, now: string): string {
  return `## Task Overview\nEarlier messages were truncated: ${count} older messages were dropped to fit the context window (summarising them failed at ${now}).\n## Current State\nUnknown beyond the messages that follow.\n## Important Discoveries\nNone recorded.\n## Next Steps\nContinue from the messages that follow; ask the person if something earlier is needed.\n## Context to Preserve\nNone recorded.`;
}

/** What the model receives, as a user message right after the system prompt. */
export function summaryMessageText(summary: string): string {
  const text = neutralizeHintTags(summary);
  return `<conversation-summary>\nThe earlier part of this conversation was compressed into this summary:\n${text}\n</conversation-summary>`;
}
