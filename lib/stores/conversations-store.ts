"use client";
// The conversation list, fed by the REST API. Components read it; only these actions change it.
import { create } from "zustand";
import type { ConversationSummary } from "../chat-message.ts";
import { apiFetch } from "./api-client.ts";

type ConversationsState = {
  conversations: ConversationSummary[];
  loaded: boolean;
  /** The workspace whose conversations are listed (null: not chosen yet, nothing is fetched). */
  workspaceId: string | null;
  /** The list shows the archived conversations instead of the others. */
  archivedView: boolean;
  showArchived: (archived: boolean) => Promise<void>;
  /** Pins/unpins or archives/unarchives a conversation, then lists again. */
  organise: (id: string, flags: { pinned?: boolean; archived?: boolean }) => Promise<void>;
  showWorkspace: (workspaceId: string) => Promise<void>;
  refresh: () => Promise<void>;
  /** Puts a conversation at the top (after a send) without waiting for the server. */
  touch: (summary: Pick<ConversationSummary, "id" | "title">) => void;
  rename: (id: string, title: string) => Promise<void>;
  remove: (id: string) => Promise<void>;
};

export const useConversationsStore = create<ConversationsState>((set, get) => ({
  conversations: [],
  loaded: false,
  workspaceId: null,
  archivedView: false,
  showArchived: async (archived) => {
    if (archived === get().archivedView) return;
    set({ archivedView: archived, loaded: false, conversations: [] });
    await get().refresh();
  },
  organise: async (id, flags) => {
    await apiFetch(`/api/conversations/${id}`, { method: "PATCH", body: JSON.stringify(flags) });
    await get().refresh();
  },
  showWorkspace: async (workspaceId) => {
    if (workspaceId === get().workspaceId && get().loaded) return;
    set({ workspaceId, loaded: false, conversations: [] });
    await get().refresh();
  },
  refresh: async () => {
    const { workspaceId, archivedView } = get();
    if (workspaceId === null) return;
    const query = `workspaceId=${encodeURIComponent(workspaceId)}${archivedView ? "&archived=true" : ""}`;
    const conversations = await apiFetch<ConversationSummary[]>(`/api/conversations?${query}`);
    // An answer for a workspace (or view) that is no longer the one shown is dropped.
    if (get().workspaceId === workspaceId && get().archivedView === archivedView) set({ conversations, loaded: true });
  },
  touch: ({ id, title }) => {
    // The archived view is not where a new message's conversation shows (the server's list says whether it is there).
    if (get().archivedView) return;
    const now = new Date().toISOString();
    const existing = get().conversations.find((c) => c.id === id);
    const updated = existing
      ? { ...existing, updatedAt: now }
      : {
          id,
          workspaceId: get().workspaceId ?? "default",
          title,
          createdAt: now,
          updatedAt: now,
          pinned: false,
          archived: false,
        };
    const others = get().conversations.filter((c) => c.id !== id);
    // After the pinned ones, unless it is pinned itself.
    const at = updated.pinned ? 0 : others.findIndex((c) => !c.pinned);
    const index = at < 0 ? others.length : at;
    set({ conversations: [...others.slice(0, index), updated, ...others.slice(index)] });
  },
  rename: async (id, title) => {
    await apiFetch(`/api/conversations/${id}`, { method: "PATCH", body: JSON.stringify({ title }) });
    set({ conversations: get().conversations.map((c) => (c.id === id ? { ...c, title } : c)) });
  },
  remove: async (id) => {
    await apiFetch(`/api/conversations/${id}`, { method: "DELETE" });
    set({ conversations: get().conversations.filter((c) => c.id !== id) });
  },
}));
