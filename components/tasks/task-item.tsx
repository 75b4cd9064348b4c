"use client";
// One task in the panel: a tick (completes or reopens), subject and description editable in place, the other statuses
// in a menu, move buttons and drag for reordering, delete.
import { useState } from "react";
import type { Task, TaskStatus } from "@/lib/chat-message";
import { useTasksStore } from "@/lib/stores/tasks-store";
import { TrashIcon } from "../ui/icons";
import { STATUS_LABEL } from "./status-labels";
import { StatusMenu } from "./status-menu";
import { TaskCheckbox } from "./task-checkbox";

export function TaskItem({
  task,
  index,
  count,
  onDragStart,
  onDrop,
}: {
  task: Task;
  index: number;
  count: number;
  onDragStart: (id: string) => void;
  onDrop: (index: number) => void;
}) {
  const edit = useTasksStore((s) => s.edit);
  const move = useTasksStore((s) => s.move);
  const remove = useTasksStore((s) => s.remove);
  const [editing, setEditing] = useState(false);
  const [subject, setSubject] = useState(task.subject);
  const [description, setDescription] = useState(task.description);
  const closed = task.status === "completed" || task.status === "cancelled";

  const save = () => {
    setEditing(false);
    const changes: { subject?: string; description?: string } = {};
    if (subject.trim() && subject.trim() !== task.subject) changes.subject = subject.trim();
    if (description !== task.description) changes.description = description;
    if (Object.keys(changes).length) void edit(task.id, changes);
    else setSubject(task.subject);
  };

  return (
    <li
      data-testid="task-item"
      data-task-id={task.id}
      data-status={task.status}
      draggable={!editing}
      onDragStart={(e) => {
        e.dataTransfer.effectAllowed = "move";
        onDragStart(task.id);
      }}
      onDragOver={(e) => e.preventDefault()}
      onDrop={(e) => {
        e.preventDefault();
        onDrop(index);
      }}
      className="group flex items-start gap-1.5 rounded-md px-2 py-1 hover:bg-chip/60"
    >
      <TaskCheckbox status={task.status} subject={task.subject} onChange={(status) => void edit(task.id, { status })} />
      <div className="min-w-0 flex-1">
        {editing ? (
          <div className="flex flex-col gap-1">
            <input
              data-testid="task-subject-input"
              aria-label="Task subject"
              autoFocus
              value={subject}
              maxLength={500}
              onChange={(e) => setSubject(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === "Enter") save();
                if (e.key === "Escape") {
                  setSubject(task.subject);
                  setDescription(task.description);
                  setEditing(false);
                }
              }}
              className="w-full rounded-md border border-accent/50 bg-bg px-2 py-1 text-sm outline-none"
            />
            <textarea
              data-testid="task-description-input"
              aria-label="Task description"
              rows={2}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              className="w-full rounded-md border border-border bg-bg px-2 py-1 text-xs outline-none"
            />
            <div className="flex items-center gap-2">
              <select
                data-testid="task-status-select"
                aria-label="Status"
                value={task.status}
                onChange={(e) => void edit(task.id, { status: e.target.value as TaskStatus })}
                className="rounded-md border border-border bg-bg px-1 py-0.5 text-xs"
              >
                {Object.entries(STATUS_LABEL).map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </select>
              <button
                type="button"
                data-testid="task-save"
                onClick={save}
                className="rounded-md bg-accent px-2 py-0.5 text-xs text-accent-fg"
              >
                Save
              </button>
            </div>
          </div>
        ) : (
          <button type="button" onClick={() => setEditing(true)} className="block w-full text-left" title="Edit">
            <span data-testid="task-subject" className={`block text-sm ${closed ? "text-muted line-through" : ""}`}>
              <span className="mr-1 text-xs text-faint">#{task.id}</span>
              {task.subject}
            </span>
            {task.description && task.description !== task.subject && (
              <span data-testid="task-description" className="block truncate text-xs text-muted">
                {task.description}
              </span>
            )}
            {task.blockedBy.length > 0 && (
              <span className="block text-xs text-faint">
                blocked by {task.blockedBy.map((b) => `#${b}`).join(", ")}
              </span>
            )}
          </button>
        )}
      </div>
      <div className="flex shrink-0 items-center">
        <StatusMenu status={task.status} subject={task.subject} onChange={(status) => void edit(task.id, { status })} />
        <button
          type="button"
          aria-label={`Move task ${task.id} up`}
          data-testid="task-up"
          disabled={index === 0}
          onClick={() => void move(task.id, index - 1)}
          className="px-1 text-xs text-muted disabled:opacity-30"
        >
          ▲
        </button>
        <button
          type="button"
          aria-label={`Move task ${task.id} down`}
          data-testid="task-down"
          disabled={index === count - 1}
          onClick={() => void move(task.id, index + 1)}
          className="px-1 text-xs text-muted disabled:opacity-30"
        >
          ▼
        </button>
      </div>
      <button
        type="button"
        aria-label={`Delete task ${task.id}`}
        data-testid="task-delete"
        onClick={() => void remove(task.id)}
        className="mt-0.5 shrink-0 rounded p-0.5 text-muted hover:text-danger"
      >
        <TrashIcon />
      </button>
    </li>
  );
}
