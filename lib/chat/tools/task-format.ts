// Pure: the task tools' result texts (they follow AgentScope's, so prompts written for it work here).
import { oneLine } from "../../agent/hints/neutralize-tags.ts";
import type { Task } from "../../chat-message.ts";
import { capText, TOOL_RESULT_MAX_CHARS } from "../../agent/tool-result.ts";

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
  const lines = [
    `Task (id=${task.id}): ${oneLine(task.subject)}`,
    `Status: ${task.status}`,
    `Description: ${task.description}`,
  ];
  if (task.owner) lines.push(`Owner: ${oneLine(task.owner)}`);
  if (task.blockedBy.length) lines.push(`Blocked by: ${task.blockedBy.map((id) => `#${id}`).join(", ")}`);
  if (task.blocks.length) lines.push(`Blocks: ${task.blocks.map((id) => `#${id}`).join(", ")}`);
  if (Object.keys(task.metadata).length) lines.push(`Metadata: ${JSON.stringify(task.metadata)}`);
  return lines.join("\n");
}

export const TASK_PAGE_DEFAULT = 50;
export const TASK_PAGE_MAX = 200;
const isOpen = (task: Task) => task.status === "pending" || task.status === "in_progress";

/**
 * TaskList's page (its text, and how many tasks it shows): AgentScope's one line per task when the whole list fits
 * one page (the list's own order). A longer list is paged, open tasks first, within TOOL_RESULT_MAX_CHARS, ending
 * with how to get the next page.
 */
export function taskListPage(
  tasks: readonly Task[],
  { offset = 0, limit = TASK_PAGE_DEFAULT }: { offset?: number; limit?: number } = {},
): { text: string; shown: number } {
  if (!tasks.length) return { text: "No tasks available.", shown: 0 };
  const pageSize = Math.max(1, Math.min(limit, TASK_PAGE_MAX));
  if (offset === 0 && tasks.length <= pageSize) {
    const text = tasks.map(formatTaskLine).join("\n");
    if (text.length <= TOOL_RESULT_MAX_CHARS) return { text, shown: tasks.length };
  }
  const ordered = [...tasks.filter(isOpen), ...tasks.filter((t) => !isOpen(t))];
  if (offset >= ordered.length)
    return { text: `No tasks at offset ${offset}: there are ${ordered.length} tasks.`, shown: 0 };
  const budget = TOOL_RESULT_MAX_CHARS - 200; // room for the footer and the counter line
  const lines: string[] = [];
  let used = 0;
  for (let i = offset; i < ordered.length && lines.length < pageSize; i++) {
    const line = capText(formatTaskLine(ordered[i]!), 1_000);
    if (lines.length && used + line.length + 1 > budget) break;
    lines.push(line);
    used += line.length + 1;
  }
  const shown = lines.length;
  const rest = ordered.length - (offset + shown);
  if (rest > 0)
    lines.push(
      `… ${rest} more tasks (open tasks are listed first); call TaskList {"offset": ${offset + shown}} for the next page.`,
    );
  return { text: lines.join("\n"), shown };
}
