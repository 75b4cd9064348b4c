"use client";
// The open conversation's subagents for the side panel: seeded by the page, loaded again on each "agents" change
// event (a child started or ended, in this tab or another), stopped one by one; and the child whose transcript the
// drawer shows.
import { create } from "zustand";
import type { AgentSummary } from "../chat-message.ts";
import { apiFetch, failureText } from "./api-client.ts";
import { warnFailure } from "@/lib/client-log";

export type { AgentSummary };

type AgentsState = {
  conversationId: string | null;
  agents: AgentSummary[];
  error: string | null;
  /** The child conversation the transcript drawer shows. */
  openChild: string | null;
  seed: (conversationId: string, agents: AgentSummary[]) => void;
  reload: (conversationId: string) => Promise<void>;
  stop: (childId: string) => Promise<boolean>;
  open: (childId: string | null) => void;
};

export const useAgentsStore = create<AgentsState>((set, get) => ({
  conversationId: null,
  agents: [],
  error: null,
  openChild: null,
  seed: (conversationId, agents) => set({ conversationId, agents, error: null, openChild: null }),
  reload: async (conversationId) => {
    if (get().conversationId !== conversationId) return;
    try {
      const { agents } = await apiFetch<{ agents: AgentSummary[] }>(
        `/api/conversations/${encodeURIComponent(conversationId)}/agents`,
      );
      if (get().conversationId === conversationId) set({ agents, error: null });
    } catch (error) {
      // the next change or a reload tries again
      warnFailure("reloading the subagents failed")(error);
    }
  },
  stop: async (childId) => {
    try {
      await apiFetch(`/api/conversations/${encodeURIComponent(childId)}/stop`, { method: "POST" });
    } catch (error) {
      set({ error: failureText(error) });
      return false;
    }
    const parent = get().conversationId;
    if (parent) await get().reload(parent);
    return true;
  },
  open: (childId) => set({ openChild: childId }),
}));
