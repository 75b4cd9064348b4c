"use client";
// A task's tick: one click completes it, or reopens a completed one (to pending). The icon still shows the other
// statuses (in progress, cancelled), which the status menu beside it sets.
import type { TaskStatus } from "@/lib/chat-message";
import { StatusIcon } from "./status-icon";
import { STATUS_LABEL, tickedStatus } from "./status-labels";

export function TaskCheckbox({
  status,
  subject,
  onChange,
}: {
  status: TaskStatus;
  subject: string;
  onChange: (status: TaskStatus) => void;
}) {
  const done = status === "completed";
  return (
    <button
      type="button"
      role="checkbox"
      aria-checked={done}
      data-testid="task-done"
      aria-label={`Done: ${subject}`}
      title={done ? "Completed — click to reopen" : `${STATUS_LABEL[status]} — click to complete`}
      onClick={() => onChange(tickedStatus(status))}
      className="mt-0.5 shrink-0 rounded-full outline-none focus-visible:ring-2 focus-visible:ring-accent"
    >
      <StatusIcon status={status} />
    </button>
  );
}
