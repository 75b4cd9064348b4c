// Pure: the task tools' result texts (they follow AgentScope's, so prompts written for it work here).
import type { Task } from "../../chat-message.ts";

export function formatTaskLine(task: Task): string {
  let line = `${task.id} [${task.status}] ${task.subject}`;
  if (task.owner) line += ` (${task.owner})`;
  const open = task.blockedBy;
  if (open.length) line += ` [blocked by ${open.join(", ")}]`;
  return line;
}

export function formatTaskList(tasks: readonly Task[]): string {
  return tasks.length ? tasks.map(formatTaskLine).join("\n") : "No tasks available.";
}

export function formatTaskDetail(task: Task): string {
  const lines = [`Task (id=${task.id}): ${task.subject}`, `Status: ${task.status}`, `Description: ${task.description}`];
  if (task.owner) lines.push(`Owner: ${task.owner}`);
  if (task.blockedBy.length) lines.push(`Blocked by: ${task.blockedBy.map((id) => `#${id}`).join(", ")}`);
  if (task.blocks.length) lines.push(`Blocks: ${task.blocks.map((id) => `#${id}`).join(", ")}`);
  if (Object.keys(task.metadata).length) lines.push(`Metadata: ${JSON.stringify(task.metadata)}`);
  return lines.join("\n");
}

export function withCallCount(text: string, toolName: string, count: number): string {
  return `${text}\n(Tool call #${count} for '${toolName}' in this conversation.)`;
}

/**
 * A detailed tool error for the model: the type (as the error's name, which the AI SDK puts in front of the message),
 * the arguments it sent, and what to do instead.
 */
export class TaskToolError extends Error {
  constructor(type: string, problem: string, args: unknown, advice: string) {
    super(`${problem}\nArguments sent: ${JSON.stringify(args)}\nWhat to do: ${advice}`);
    this.name = type;
  }

  override toString(): string {
    return `${this.name}: ${this.message}`;
  }
}
