"use client";
// The open conversation's task list: seeded by the page, replaced by live `data-tasks` snapshots while the agent
// works, and changed by the person through the REST API. A failure is said in words (`failureText`).
import { create } from "zustand";
import type { Task, TaskStatus } from "../chat-message.ts";
import { apiFetch, failureText } from "./api-client.ts";
import { warnFailure } from "@/lib/client-log";

type TasksState = {
  conversationId: string | null;
  tasks: Task[];
  error: string | null;
  /** The page's list the store was last seeded with (kept by identity; see seed). */
  seededFrom: Task[] | null;
  /**
   * Takes the page's list, unless it is the same one for the same conversation: the panel drawn again (the side
   * panel's drawer, mounted at each opening) must not put back the page's older list over live changes.
   */
  seed: (conversationId: string, tasks: Task[]) => void;
  receive: (tasks: Task[]) => void;
  /** Loads the list again when it is the open conversation's (another tab or the agent changed it). */
  reload: (conversationId: string) => Promise<void>;
  /** Resolves to whether the task was added (the add box keeps its text when not). */
  add: (subject: string) => Promise<boolean>;
  edit: (id: string, changes: { subject?: string; description?: string; status?: TaskStatus }) => Promise<boolean>;
  move: (id: string, position: number) => Promise<boolean>;
  remove: (id: string) => Promise<boolean>;
  /** The task the person deleted last, with its place, while its undo is offered. */
  deleted: { task: Task; index: number } | null;
  /**
   * Creates the deleted task again with its subject, description, status, owner, metadata and place. It gets a new
   * id, and the links (blocks / blockedBy) that deleting removed are not restored.
   */
  undoDelete: () => Promise<boolean>;
  dismissDeleted: () => void;
};

export const useTasksStore = create<TasksState>((set, get) => {
  const base = () => `/api/conversations/${get().conversationId}/tasks`;
  /** Runs the change, then loads the list; `undo` puts back what was shown before an optimistic change. */
  const guard = async (action: () => Promise<unknown>, { kept, undo }: { kept?: string; undo?: () => void } = {}) => {
    try {
      await action();
    } catch (error) {
      undo?.();
      set({ error: failureText(error, { kept }) });
      return false;
    }
    try {
      set({ tasks: await apiFetch<Task[]>(base()), error: null });
    } catch (error) {
      set({ error: failureText(error) });
    }
    return true;
  };
  return {
    conversationId: null,
    tasks: [],
    error: null,
    seededFrom: null,
    seed: (conversationId, tasks) => {
      if (get().conversationId === conversationId && get().seededFrom === tasks) return;
      set({ conversationId, tasks, seededFrom: tasks, error: null, deleted: null });
    },
    receive: (tasks) => set({ tasks }),
    reload: async (conversationId) => {
      if (get().conversationId !== conversationId) return;
      try {
        const tasks = await apiFetch<Task[]>(base());
        if (get().conversationId === conversationId) set({ tasks });
      } catch (error) {
        // the next change or a reload tries again
        warnFailure("reloading the tasks failed")(error);
      }
    },
    add: (subject) =>
      guard(() => apiFetch(base(), { method: "POST", body: JSON.stringify({ subject }) }), { kept: "task" }),
    edit: (id, changes) => guard(() => apiFetch(`${base()}/${id}`, { method: "PATCH", body: JSON.stringify(changes) })),
    move: (id, position) => {
      // Optimistic: the list reorders at once, then the server's order is loaded (or the old one put back).
      const before = get().tasks;
      const tasks = before.filter((t) => t.id !== id);
      const moved = before.find((t) => t.id === id);
      if (moved) tasks.splice(position, 0, moved);
      set({ tasks });
      return guard(() => apiFetch(`${base()}/${id}`, { method: "PATCH", body: JSON.stringify({ position }) }), {
        undo: () => set({ tasks: before }),
      });
    },
    remove: async (id) => {
      const index = get().tasks.findIndex((t) => t.id === id);
      const task = get().tasks[index];
      const removed = await guard(() => apiFetch(`${base()}/${id}`, { method: "DELETE" }));
      if (removed && task) set({ deleted: { task, index } });
      return removed;
    },
    deleted: null,
    undoDelete: () => {
      const deleted = get().deleted;
      if (!deleted) return Promise.resolve(false);
      set({ deleted: null });
      const { subject, description, status, owner, metadata } = deleted.task;
      return guard(async () => {
        const created = await apiFetch<Task>(base(), {
          method: "POST",
          body: JSON.stringify({ subject, description, status, metadata }),
        });
        const place = { position: deleted.index, ...(owner ? { owner } : {}) };
        await apiFetch(`${base()}/${created.id}`, { method: "PATCH", body: JSON.stringify(place) });
      });
    },
    dismissDeleted: () => set({ deleted: null }),
  };
});
