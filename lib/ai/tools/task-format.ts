// Pure: the task tools' result texts (they follow AgentScope's, so prompts written for it work here).
import { oneLine } from "../../agent/hints/neutralize-tags.ts";
import type { Task } from "../../chat-message.ts";
import { harnessOptions } from "../../harness-options.ts";

/** No tool result may be longer than this (about 2k tokens): a result must fit any model's window with room to spare. */
export const TOOL_RESULT_MAX_CHARS = 8_000;

// A field shown on one line of a result (a subject, an owner): line breaks become spaces, so it cannot forge lines.
export { oneLine };

export function formatTaskLine(task: Task): string {
  let line = `${task.id} [${task.status}] ${oneLine(task.subject)}`;
  if (task.owner) line += ` (${oneLine(task.owner)})`;
  const open = task.blockedBy;
  if (open.length) line += ` [blocked by ${open.join(", ")}]`;
  return line;
}

export function formatTaskDetail(task: Task): string {
  const lines = [`Task (id=${task.id}): ${oneLine(task.subject)}`, `Status: ${task.status}`, `Description: ${task.description}`];
  if (task.owner) lines.push(`Owner: ${oneLine(task.owner)}`);
  if (task.blockedBy.length) lines.push(`Blocked by: ${task.blockedBy.map((id) => `#${id}`).join(", ")}`);
  if (task.blocks.length) lines.push(`Blocks: ${task.blocks.map((id) => `#${id}`).join(", ")}`);
  if (Object.keys(task.metadata).length) lines.push(`Metadata: ${JSON.stringify(task.metadata)}`);
  return lines.join("\n");
}

/** Cuts a text to `max` characters, saying so at the end. */
export function capText(text: string, max = TOOL_RESULT_MAX_CHARS): string {
  if (text.length <= max) return text;
  const note = `\n… [cut: ${text.length - max} more characters not shown]`;
  return text.slice(0, Math.max(0, max - note.length)) + note;
}

export function callCountLine(toolName: string, count: number): string {
  return `(Tool call #${count} for '${toolName}' in this conversation.)`;
}

/** A tool's result: the text (bounded), then the call counter. */
export function withCallCount(text: string, toolName: string, count: number): string {
  if (!harnessOptions().toolCallCounter) return capText(text);
  return `${capText(text)}\n${callCountLine(toolName, count)}`;
}

const ARGUMENTS_SHOWN = 1_000;

function argumentsText(args: unknown): string {
  const text = typeof args === "string" ? args : (JSON.stringify(args) ?? String(args));
  return text.length > ARGUMENTS_SHOWN ? `${text.slice(0, ARGUMENTS_SHOWN)}… (${text.length} characters)` : text;
}

/**
 * A detailed tool error for the model: its text (AgentScope's where it has one), the error type, the arguments it
 * sent, what to do instead, and the call counter. The AI SDK hands the model `error.toString()`.
 */
export class TaskToolError extends Error {
  constructor({ type, text, args, advice, toolName, call }: { type: string; text: string; args: unknown; advice: string; toolName: string; call: number }) {
    const lines = [text];
    // The evaluation's "plain errors" variant (lib/harness-options.ts) keeps only the error's own text.
    if (harnessOptions().toolErrorDetails) {
      if (!text.startsWith(`${type}:`)) lines.push(`Error type: ${type}`);
      lines.push(`Arguments sent: ${argumentsText(args)}`, `What to do: ${advice}`);
    }
    super(withCallCount(lines.join("\n"), toolName, call));
    this.name = type;
  }

  override toString(): string {
    return this.message;
  }
}

export const TASK_PAGE_DEFAULT = 50;
export const TASK_PAGE_MAX = 200;
const isOpen = (task: Task) => task.status === "pending" || task.status === "in_progress";

/**
 * TaskList's text: AgentScope's one line per task when the whole list fits one page (the list's own order). A longer
 * list is paged, open tasks first, within TOOL_RESULT_MAX_CHARS, ending with how to get the next page.
 */
export function formatTaskList(tasks: readonly Task[], { offset = 0, limit = TASK_PAGE_DEFAULT }: { offset?: number; limit?: number } = {}): string {
  if (!tasks.length) return "No tasks available.";
  const pageSize = Math.max(1, Math.min(limit, TASK_PAGE_MAX));
  if (offset === 0 && tasks.length <= pageSize) {
    const text = tasks.map(formatTaskLine).join("\n");
    if (text.length <= TOOL_RESULT_MAX_CHARS) return text;
  }
  const ordered = [...tasks.filter(isOpen), ...tasks.filter((t) => !isOpen(t))];
  if (offset >= ordered.length) return `No tasks at offset ${offset}: there are ${ordered.length} tasks.`;
  const budget = TOOL_RESULT_MAX_CHARS - 200; // room for the footer and the counter line
  const lines: string[] = [];
  let used = 0;
  for (let i = offset; i < ordered.length && lines.length < pageSize; i++) {
    const line = capText(formatTaskLine(ordered[i]!), 1_000);
    if (lines.length && used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  const next = offset + lines.length;
  const rest = ordered.length - next;
  if (rest > 0) lines.push(`… ${rest} more tasks (open tasks are listed first); call TaskList {"offset": ${next}} for the next page.`);
  return lines.join("\n");
}
