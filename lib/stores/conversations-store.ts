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
  showWorkspace: async (workspaceId) => {
    if (workspaceId === get().workspaceId && get().loaded) return;
    set({ workspaceId, loaded: false, conversations: [] });
    await get().refresh();
  },
  refresh: async () => {
    const workspaceId = get().workspaceId;
    if (workspaceId === null) return;
    const conversations = await apiFetch<ConversationSummary[]>(`/api/conversations?workspaceId=${encodeURIComponent(workspaceId)}`);
    // An answer for a workspace that is no longer the one shown is dropped.
    if (get().workspaceId === workspaceId) set({ conversations, loaded: true });
  },
  touch: ({ id, title }) => {
    const now = new Date().toISOString();
    const existing = get().conversations.find((c) => c.id === id);
    const updated = existing ? { ...existing, updatedAt: now } : { id, workspaceId: get().workspaceId ?? "default", title, createdAt: now, updatedAt: now, pinned: false, archived: false };
    set({ conversations: [updated, ...get().conversations.filter((c) => c.id !== id)] });
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
