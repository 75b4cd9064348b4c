// Pure: folds long runs of completed tasks so the open work stays in view.
import type { Task } from "@/lib/chat-message";

export type TaskRow = { kind: "task"; task: Task; index: number } | { kind: "fold"; tasks: Task[]; key: string };

export const FOLD_AT = 3;

export function groupTasks(tasks: readonly Task[]): TaskRow[] {
  const rows: TaskRow[] = [];
  let run: Array<{ task: Task; index: number }> = [];
  const flush = () => {
    if (run.length >= FOLD_AT)
      rows.push({ kind: "fold", tasks: run.map((r) => r.task), key: run.map((r) => r.task.id).join("-") });
    else for (const r of run) rows.push({ kind: "task", ...r });
    run = [];
  };
  tasks.forEach((task, index) => {
    if (task.status === "completed") run.push({ task, index });
    else {
      flush();
      rows.push({ kind: "task", task, index });
    }
  });
  flush();
  return rows;
}
