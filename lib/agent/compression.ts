// Context compression (AgentScope ContextConfig semantics): when the next input reaches triggerRatio × window, keep
// the newest messages that fit in reserveRatio × window and summarise the rest, with the previous summary, into five
// sections. Pure: the summariser and the clock are passed in by the caller.
import type { ModelMessage } from "ai";
import type { LedgerItem } from "../chat-message.ts";
import { renderLedger } from "./evidence-ledger.ts";
import { neutralizeHintTags } from "./hints/neutralize-tags.ts";

export const SUMMARY_SECTIONS = [
  "Task Overview",
  "Current State",
  "Important Discoveries",
  "Next Steps",
  "Context to Preserve",
] as const;

export const COMPRESSION_REQUEST_MARKER = "Summarize the conversation below into exactly these five sections";

// Inclusive: compression fires when the input reaches the trigger (kept beside the hold, which the browser reads too).
export { shouldCompress } from "./compression-hold.ts";

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
  const role =
    message.role === "user"
      ? "User"
      : message.role === "assistant"
        ? "Assistant"
        : message.role === "tool"
          ? "Tool"
          : "System";
  if (typeof message.content === "string") return `${role}: ${message.content}`;
  const parts = message.content.map((part) => {
    if (part.type === "text") return part.text;
    if (part.type === "tool-call") return `[calls ${part.toolName} ${JSON.stringify(part.input)}]`;
    if (part.type === "tool-result") {
      const value = (part.output as { value?: unknown }).value;
      return `[${part.toolName} result: ${typeof value === "string" ? value : JSON.stringify(value)}]`;
    }
    if (part.type === "file")
      return `[an attached file${part.filename ? ` ${JSON.stringify(part.filename)}` : ""} (${part.mediaType})]`;
    return "";
  });
  return `${role}: ${parts.join(" ")}`;
}

export function transcript(messages: readonly ModelMessage[]): string {
  return messages.map((m) => neutralizeHintTags(line(m))).join("\n");
}

/** The request to the summariser, with the current time filled in (AgentScope leaves `{current_time}` literal). */
export function compressionPrompt({
  previousSummary,
  messages = [],
  transcriptText,
  now,
}: {
  previousSummary?: string;
  messages?: readonly ModelMessage[];
  /** A transcript already made (a piece of a longer one), instead of `messages`. */
  transcriptText?: string;
  now: string;
}): string {
  return [
    `${COMPRESSION_REQUEST_MARKER}, as Markdown headings: ${SUMMARY_SECTIONS.map((s) => `## ${s}`).join(", ")}.`,
    `The current time is ${now}. Keep facts, decisions, names, numbers, dates, file paths and open tasks; drop chit-chat. A line that begins with [yyyy-MM-dd HH:mm:ss] was written at that time: say when things happened where it matters.`,
    previousSummary ? `\n<previous-summary>\n${neutralizeHintTags(previousSummary)}\n</previous-summary>` : "",
    `\n<conversation>\n${transcriptText ?? transcript(messages)}\n</conversation>`,
  ].join("\n");
}

export const SUMMARIZER_INSTRUCTIONS =
  "You compress chat histories into faithful, compact summaries for another assistant to continue from.";

export function truncationNote(count: number, now: string): string {
  return `Earlier messages were truncated: ${count} older messages were dropped to fit the context window (summarising them failed at ${now}).`;
}

export function truncationSummary(count: number, now: string): string {
  return `## Task Overview\n${truncationNote(count, now)}\n## Current State\nUnknown beyond the messages that follow.\n## Important Discoveries\nNone recorded.\n## Next Steps\nContinue from the messages that follow; ask the person if something earlier is needed.\n## Context to Preserve\nNone recorded.`;
}

const NOTE_AT_END = /\n\nEarlier messages were truncated: [^\n]*$/;

/**
 * When summarising fails: the previous summary stays and the fixed note is appended (replacing an earlier note, whose
 * count this one includes); without a previous summary, the fixed truncation summary.
 */
export function fallbackSummary(previous: string | undefined, count: number, now: string): string {
  if (!previous) return truncationSummary(count, now);
  return `${previous.replace(NOTE_AT_END, "")}\n\n${truncationNote(count, now)}`;
}

/** The summary followed by its evidence ledger (lib/agent/evidence-ledger.ts), when it has one. */
export function summaryWithLedger(summary: string, ledger: readonly LedgerItem[] = []): string {
  const rendered = renderLedger(ledger);
  return rendered ? `${summary}\n\n${rendered}` : summary;
}

/** What the model receives, as a user message right after the system prompt: the summary and its ledger. */
export function summaryMessageText(summary: string, ledger?: readonly LedgerItem[]): string {
  const text = neutralizeHintTags(summaryWithLedger(summary, ledger));
  return `<conversation-summary>\nThe earlier part of this conversation was compressed into this summary:\n${text}\n</conversation-summary>`;
}

/** Cuts a text into pieces of at most `maxBytes` UTF-8 bytes (never inside a character): each is at most that many tokens. */
export function cutUtf8(text: string, maxBytes: number): string[] {
  const pieces: string[] = [];
  let start = 0;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > maxBytes && i > start) {
      pieces.push(text.slice(start, i));
      start = i;
      bytes = 0;
    }
    bytes += size;
    if (code >= 0x10000) i++;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/**
 * Groups transcript lines (one per message, with an estimate of its tokens) into pieces that each fit `budget`
 * tokens, in order. A line larger than the budget is cut into several pieces of its own.
 */
export function splitTranscript(lines: readonly { text: string; tokens: number }[], budget: number): string[] {
  const pieces: string[] = [];
  let current: string[] = [];
  let used = 0;
  const flush = () => {
    if (current.length) pieces.push(current.join("\n"));
    current = [];
    used = 0;
  };
  for (const line of lines) {
    // The estimate counts the message as the model receives it; its transcript line adds a role and brackets.
    const tokens = Math.ceil(line.tokens * 1.1) + 16;
    if (tokens > budget) {
      flush();
      pieces.push(...cutUtf8(line.text, budget));
      continue;
    }
    if (used + tokens > budget) flush();
    current.push(line.text);
    used += tokens;
  }
  flush();
  return pieces;
}
