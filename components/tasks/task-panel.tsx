"use client";
// The task panel: every task of the conversation with its status, live while the agent works; the person can add,
// edit, re-status, reorder (drag, or the arrows) and delete (with an undo). Long runs of completed tasks fold.
import { useEffect, useRef, useState } from "react";
import type { Task } from "@/lib/chat-message";
import { useTasksStore } from "@/lib/stores/tasks-store";
import { groupTasks } from "./task-groups";
import { TaskItem } from "./task-item";
import { UndoDelete } from "./undo-delete";

export function TaskPanel({ conversationId, initialTasks }: { conversationId: string; initialTasks: Task[] }) {
  const seed = useTasksStore((s) => s.seed);
  const tasks = useTasksStore((s) => s.tasks);
  const error = useTasksStore((s) => s.error);
  const add = useTasksStore((s) => s.add);
  const move = useTasksStore((s) => s.move);
  const [draft, setDraft] = useState("");
  const [openFolds, setOpenFolds] = useState<Set<string>>(new Set());
  const dragged = useRef<string | null>(null);

  useEffect(() => seed(conversationId, initialTasks), [conversationId, initialTasks, seed]);

  const done = tasks.filter((t) => t.status === "completed").length;
  const rows = groupTasks(tasks);
  const drop = (index: number) => {
    if (dragged.current) void move(dragged.current, index);
    dragged.current = null;
  };
  const item = (task: Task, index: number) => (
    <TaskItem
      key={task.id}
      task={task}
      index={index}
      count={tasks.length}
      onDragStart={(id) => (dragged.current = id)}
      onDrop={drop}
    />
  );

  return (
    <section data-testid="task-panel" aria-label="Tasks" className="flex min-h-0 flex-1 flex-col">
      <header className="flex items-baseline justify-between px-4 pt-4 pb-2">
        <h2 className="text-sm font-semibold">Tasks</h2>
        <span data-testid="task-count" className="text-xs text-muted">
          {done}/{tasks.length} done
        </span>
      </header>
      <ul data-testid="task-list" className="min-h-0 flex-1 space-y-0.5 overflow-y-auto px-2">
        {tasks.length === 0 && (
          <li className="px-2 py-3 text-xs text-muted">
            No tasks yet. Add one below, or ask: “add tasks: draft; review; publish”.
          </li>
        )}
        {rows.map((row) =>
          row.kind === "task" ? (
            item(row.task, row.index)
          ) : openFolds.has(row.key) ? (
            row.tasks.map((task) => item(task, tasks.indexOf(task)))
          ) : (
            <li key={row.key}>
              <button
                type="button"
                data-testid="task-fold"
                onClick={() => setOpenFolds(new Set([...openFolds, row.key]))}
                className="w-full rounded-lg px-2 py-1.5 text-left text-xs text-muted hover:bg-chip/60"
              >
                ✓ {row.tasks.length} completed tasks — show
              </button>
            </li>
          ),
        )}
      </ul>
      <UndoDelete />
      {error && (
        <p role="alert" className="px-4 py-1 text-xs text-danger">
          {error}
        </p>
      )}
      <form
        className="border-t border-border p-3"
        onSubmit={(e) => {
          e.preventDefault();
          const subject = draft.trim();
          if (!subject) return;
          // The text stays in the box until the server has the task.
          void add(subject).then((added) => {
            if (added) setDraft((current) => (current.trim() === subject ? "" : current));
          });
        }}
      >
        <input
          data-testid="task-add-input"
          aria-label="Add a task"
          placeholder="Add a task…"
          value={draft}
          maxLength={500}
          onChange={(e) => setDraft(e.target.value)}
          className="w-full rounded-lg border border-border bg-bg px-3 py-1.5 text-sm outline-none focus:border-accent/60"
        />
      </form>
    </section>
  );
}
