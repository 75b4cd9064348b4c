"use client";
// The open conversation's task list: seeded by the page, replaced by live `data-tasks` snapshots while the agent
// works, and changed by the person through the REST API.
import { create } from "zustand";
import type { Task, TaskStatus } from "../chat-message.ts";
import { apiFetch } from "./api-client.ts";

type TasksState = {
  conversationId: string | null;
  tasks: Task[];
  error: string | null;
  seed: (conversationId: string, tasks: Task[]) => void;
  receive: (tasks: Task[]) => void;
  add: (subject: string) => Promise<void>;
  edit: (id: string, changes: { subject?: string; description?: string; status?: TaskStatus }) => Promise<void>;
  move: (id: string, position: number) => Promise<void>;
  remove: (id: string) => Promise<void>;
};

export const useTasksStore = create<TasksState>((set, get) => {
  const base = () => `/api/conversations/${get().conversationId}/tasks`;
  const reload = async () => set({ tasks: await apiFetch<Task[]>(base()), error: null });
  const guard = async (action: () => Promise<unknown>) => {
    try {
      await action();
      await reload();
    } catch (error) {
      set({ error: (error as Error).message });
    }
  };
  return {
    conversationId: null,
    tasks: [],
    error: null,
    seed: (conversationId, tasks) => set({ conversationId, tasks, error: null }),
    receive: (tasks) => set({ tasks }),
    add: (subject) => guard(() => apiFetch(base(), { method: "POST", body: JSON.stringify({ subject }) })),
    edit: (id, changes) => guard(() => apiFetch(`${base()}/${id}`, { method: "PATCH", body: JSON.stringify(changes) })),
    move: (id, position) => {
      // Optimistic: the list reorders at once, then the server's order is loaded.
      const tasks = get().tasks.filter((t) => t.id !== id);
      const moved = get().tasks.find((t) => t.id === id);
      if (moved) tasks.splice(position, 0, moved);
      set({ tasks });
      return guard(() => apiFetch(`${base()}/${id}`, { method: "PATCH", body: JSON.stringify({ position }) }));
    },
    remove: (id) => guard(() => apiFetch(`${base()}/${id}`, { method: "DELETE" })),
  };
});
