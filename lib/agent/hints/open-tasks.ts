// Pure: the open tasks as a task hint lists them when `settings.injection.tasksDetail` is "list" — in progress first,
// one line each `[id] status subject`, at most OPEN_TASKS_MAX_LINES lines and OPEN_TASKS_MAX_CHARS characters once
// escaped (the hint's size bound holds), the rest counted with a pointer to TaskList.
import { escapeValue } from "./render-hint.ts";

export const TASKS_DETAILS = ["counts", "list"] as const;
export const OPEN_TASKS_MAX_LINES = 20;
export const OPEN_TASKS_MAX_CHARS = 1_600;
const SUBJECT_MAX_CHARS = 100;

export type OpenTask = { id: string; status: "pending" | "in_progress"; subject: string };

const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;

function line(task: OpenTask): string {
  const subject = task.subject.replace(LINE_BREAKS, " ").trim();
  const cut = subject.length > SUBJECT_MAX_CHARS ? `${subject.slice(0, SUBJECT_MAX_CHARS)}…` : subject;
  return `[${task.id}] ${task.status} ${cut}`;
}

/** The open tasks' lines, in progress first; "" when there are none. */
export function openTasksList(tasks: readonly OpenTask[]): string {
  const ordered = [...tasks.filter((t) => t.status === "in_progress"), ...tasks.filter((t) => t.status === "pending")];
  const more = (n: number) => `… and ${n} more: call TaskList`;
  const lines: string[] = [];
  let used = 0;
  for (const task of ordered) {
    const next = line(task);
    const left = ordered.length - lines.length - 1;
    const reserve = left > 0 ? escapeValue(more(left)).length + 1 : 0;
    if (lines.length === OPEN_TASKS_MAX_LINES || used + escapeValue(next).length + 1 + reserve > OPEN_TASKS_MAX_CHARS)
      break;
    lines.push(next);
    used += escapeValue(next).length + 1;
  }
  if (lines.length < ordered.length) lines.push(more(ordered.length - lines.length));
  return lines.join("\n");
}
