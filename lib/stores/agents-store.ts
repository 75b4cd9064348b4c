"use client";
// The open conversation's subagents for the side panel: seeded by the page, loaded again on each "agents" change
// event (a child started or ended, in this tab or another), stopped one by one; the children seen ending, said in
// words until dismissed; and the child whose transcript the drawer shows.
import { create } from "zustand";
import type { AgentSummary } from "../chat-message.ts";
import { type AgentEndNotice, endedNotices } from "../agent/subagent-ends.ts";
import { apiFetch, failureText } from "./api-client.ts";
import { warnFailure } from "@/lib/client-log";

export type { AgentSummary };

type AgentsState = {
  conversationId: string | null;
  agents: AgentSummary[];
  error: string | null;
  /** Children this tab saw end, newest last, until the person dismisses them. */
  ended: AgentEndNotice[];
  /** The child conversation the transcript drawer shows. */
  openChild: string | null;
  seed: (conversationId: string, agents: AgentSummary[]) => void;
  reload: (conversationId: string) => Promise<void>;
  stop: (childId: string) => Promise<boolean>;
  open: (childId: string | null) => void;
  dismiss: (childId: string) => void;
};

export const useAgentsStore = create<AgentsState>((set, get) => ({
  conversationId: null,
  agents: [],
  error: null,
  openChild: null,
  ended: [],
  seed: (conversationId, agents) => set({ conversationId, agents, error: null, openChild: null, ended: [] }),
  reload: async (conversationId) => {
    if (get().conversationId !== conversationId) return;
    try {
      const { agents } = await apiFetch<{ agents: AgentSummary[] }>(
        `/api/conversations/${encodeURIComponent(conversationId)}/agents`,
      );
      if (get().conversationId !== conversationId) return;
      const ended = endedNotices(get().agents, agents);
      // A child that ended again (AgentSend ran it once more) is said once, as it ended last.
      const kept = get().ended.filter((n) => !ended.some((e) => e.conversationId === n.conversationId));
      set({ agents, error: null, ...(ended.length ? { ended: [...kept, ...ended] } : {}) });
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
  dismiss: (childId) => set({ ended: get().ended.filter((n) => n.conversationId !== childId) }),
}));
