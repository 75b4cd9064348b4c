"use client";
// The workspaces and the one chosen in the sidebar. The choice survives reloads (localStorage); opening a
// conversation by URL switches to its workspace. New conversations start in the chosen one.
import { create } from "zustand";
import { persist } from "zustand/middleware";
import { apiFetch } from "./api-client.ts";

/**
 * `editable` false: a shared workspace the viewer uses but may not change (absent: an older server, editable).
 * `owner`: open or token mode's person sees which account a workspace came from.
 */
export type WorkspaceSummary = {
  id: string;
  name: string;
  shared?: boolean;
  editable?: boolean;
  owner?: string;
  createdAt: string;
  updatedAt: string;
};

/** A workspace's label in the switcher: "Team (shared)", or "default (Ada)" for an account's in open or token mode. */
export function workspaceLabel(w: Pick<WorkspaceSummary, "name" | "shared" | "owner">): string {
  if (w.shared) return `${w.name} (shared)`;
  return w.owner ? `${w.name} (${w.owner})` : w.name;
}

export const DEFAULT_WORKSPACE = "default";

/** "default", or in accounts mode a user's own default ("default-<user id>": the URL name "default" means it). */
export const isDefaultWorkspaceId = (id: string) => id === DEFAULT_WORKSPACE || id.startsWith(`${DEFAULT_WORKSPACE}-`);

type WorkspacesState = {
  workspaces: WorkspaceSummary[];
  loaded: boolean;
  /** The chosen workspace (persisted). */
  currentId: string;
  /** Whether the stored choice was read (before that, nothing is fetched for a workspace). */
  ready: boolean;
  /**
   * The workspace each conversation started in this tab was created in (its first message named it): the page of a
   * conversation started here was rendered before it was stored, and the list stops showing it when the workspace
   * changes, so this is where the switcher learns which workspace the open conversation is in.
   */
  startedIn: Record<string, string>;
  noteStarted: (conversationId: string, workspaceId: string) => void;
  setReady: () => void;
  refresh: () => Promise<void>;
  select: (id: string) => void;
  create: (name: string) => Promise<WorkspaceSummary>;
  rename: (id: string, name: string) => Promise<void>;
  remove: (id: string) => Promise<void>;
};

export const useWorkspacesStore = create<WorkspacesState>()(
  persist(
    (set, get) => ({
      workspaces: [],
      loaded: false,
      currentId: DEFAULT_WORKSPACE,
      ready: false,
      startedIn: {},
      setReady: () => set({ ready: true }),
      noteStarted: (conversationId, workspaceId) =>
        set({ startedIn: { ...get().startedIn, [conversationId]: workspaceId } }),
      refresh: async () => {
        const workspaces = await apiFetch<WorkspaceSummary[]>("/api/workspaces");
        // A remembered workspace that was deleted meanwhile (or another user's, on a shared browser) falls back to default.
        const fallback = workspaces.find((w) => isDefaultWorkspaceId(w.id))?.id ?? DEFAULT_WORKSPACE;
        const currentId = workspaces.some((w) => w.id === get().currentId) ? get().currentId : fallback;
        set({ workspaces, loaded: true, currentId });
      },
      select: (id) => set({ currentId: id }),
      create: async (name) => {
        const created = await apiFetch<WorkspaceSummary>("/api/workspaces", {
          method: "POST",
          body: JSON.stringify({ name }),
        });
        set({ workspaces: [...get().workspaces, created], currentId: created.id });
        return created;
      },
      rename: async (id, name) => {
        const updated = await apiFetch<WorkspaceSummary>(`/api/workspaces/${id}`, {
          method: "PATCH",
          body: JSON.stringify({ name }),
        });
        set({
          workspaces: get().workspaces.map((w) =>
            w.id === id ? { ...w, name: updated.name, updatedAt: updated.updatedAt } : w,
          ),
        });
      },
      remove: async (id) => {
        await apiFetch(`/api/workspaces/${id}`, { method: "DELETE" });
        const fallback = get().workspaces.find((w) => isDefaultWorkspaceId(w.id))?.id ?? DEFAULT_WORKSPACE;
        set({
          workspaces: get().workspaces.filter((w) => w.id !== id),
          currentId: get().currentId === id ? fallback : get().currentId,
        });
      },
    }),
    // Rehydrated after mount (see AppShell) so the server-rendered HTML and the first client render agree.
    { name: "hintline-workspace", skipHydration: true, partialize: (s) => ({ currentId: s.currentId }) },
  ),
);
