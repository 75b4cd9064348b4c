"use client";
// The conversation list, fed by the REST API. Components read it; only these actions change it.
import { create } from "zustand";
import type { ConversationSummary } from "../chat-message.ts";
import { apiFetch } from "./api-client.ts";

type ConversationsState = {
  conversations: ConversationSummary[];
  loaded: boolean;
  refresh: () => Promise<void>;
  /** Puts a conversation at the top (after a send) without waiting for the server. */
  touch: (summary: Pick<ConversationSummary, "id" | "title">) => void;
  rename: (id: string, title: string) => Promise<void>;
  remove: (id: string) => Promise<void>;
};

export const useConversationsStore = create<ConversationsState>((set, get) => ({
  conversations: [],
  loaded: false,
  refresh: async () => {
    const conversations = await apiFetch<ConversationSummary[]>("/api/conversations");
    set({ conversations, loaded: true });
  },
  touch: ({ id, title }) => {
    const now = new Date().toISOString();
    const existing = get().conversations.find((c) => c.id === id);
    const updated = existing ? { ...existing, updatedAt: now } : { id, workspaceId: "default", title, createdAt: now, updatedAt: now };
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
