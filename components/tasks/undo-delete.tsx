"use client";
// "Task deleted · Undo", for 6 seconds after the person deletes a task. Undo creates it again (see undoDelete: a new
// id, without its links to other tasks).
import { useEffect } from "react";
import { useTasksStore } from "@/lib/stores/tasks-store";

const OFFER_MS = 6_000;

export function UndoDelete() {
  const deleted = useTasksStore((s) => s.deleted);
  const undoDelete = useTasksStore((s) => s.undoDelete);
  const dismiss = useTasksStore((s) => s.dismissDeleted);

  useEffect(() => {
    if (!deleted) return;
    const timer = setTimeout(() => {
      if (useTasksStore.getState().deleted === deleted) dismiss();
    }, OFFER_MS);
    return () => clearTimeout(timer);
  }, [deleted, dismiss]);

  return (
    <div role="status" className="px-3">
      {deleted && (
        <p data-testid="task-undo" className="flex items-center gap-2 rounded-md bg-chip px-2 py-1 text-xs">
          <span className="min-w-0 flex-1 truncate">
            Task deleted · <span className="text-muted">{deleted.task.subject}</span>
          </span>
          <button
            type="button"
            data-testid="task-undo-button"
            title="Add it again: same subject, description, status and place (a new number; links to other tasks are not restored)"
            onClick={() => void undoDelete()}
            className="shrink-0 rounded px-1.5 py-0.5 font-medium text-accent hover:bg-bg"
          >
            Undo
          </button>
        </p>
      )}
    </div>
  );
}
