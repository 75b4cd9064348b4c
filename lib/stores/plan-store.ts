"use client";
// The open conversation's mode and plan: seeded by the page, the plan replaced live by `data-plan` chunks while the
// agent writes it, and changed by the person through PATCH /api/conversations/:id. A conversation that does not exist
// yet keeps its mode here, and the first message creates it in that mode.
import { create } from "zustand";
import type { ConversationMode } from "../agent/plan-mode.ts";
import type { PlanData } from "../chat-message.ts";
import { apiFetch, failureText } from "./api-client.ts";

export type PlanVersionView = { version: number; content: string; author: "agent" | "person"; createdAt: string };
type View = { mode: ConversationMode; plan: PlanData | null; planVersions: PlanVersionView[] };

export const APPROVE_MESSAGE = "The plan is approved: build it.";

type PlanState = View & {
  conversationId: string | null;
  /** Whether the conversation is stored (else a PATCH would be a 404; the mode goes with the first message). */
  exists: boolean;
  error: string | null;
  /** A message to send for the person (Approve and build asks the agent to start); the chat takes it. */
  outgoing: string | null;
  seed: (conversationId: string, view: View, exists: boolean) => void;
  /** The first message was sent: the conversation exists from now on. */
  created: () => void;
  receivePlan: (plan: PlanData) => void;
  setMode: (mode: ConversationMode) => Promise<boolean>;
  savePlan: (content: string) => Promise<boolean>;
  /** Switches to build (saving `edited` first when given) and asks the agent to build. */
  approve: (edited?: string) => Promise<boolean>;
  takeOutgoing: () => string | null;
};

export const usePlanStore = create<PlanState>((set, get) => {
  const patch = async (body: Record<string, unknown>) => {
    try {
      const view = await apiFetch<View>(`/api/conversations/${get().conversationId}`, {
        method: "PATCH",
        body: JSON.stringify(body),
      });
      set({ mode: view.mode, plan: view.plan, planVersions: view.planVersions, error: null });
      return true;
    } catch (error) {
      set({ error: failureText(error, { kept: body.plan ? "plan" : undefined }) });
      return false;
    }
  };
  return {
    conversationId: null,
    mode: "build",
    plan: null,
    planVersions: [],
    exists: false,
    error: null,
    outgoing: null,
    seed: (conversationId, view, exists) => set({ conversationId, ...view, exists, error: null, outgoing: null }),
    created: () => set({ exists: true }),
    receivePlan: (plan) => {
      const versions = get().planVersions.filter((v) => v.version !== plan.version);
      set({
        plan,
        planVersions: [
          ...versions,
          { version: plan.version, content: plan.content, author: plan.author, createdAt: plan.updatedAt },
        ],
      });
    },
    setMode: async (mode) => {
      if (!get().exists) {
        set({ mode, error: null });
        return true;
      }
      return patch({ mode });
    },
    savePlan: (content) => patch({ plan: { content } }),
    approve: async (edited) => {
      const ok = await patch(
        edited !== undefined && edited !== get().plan?.content
          ? { plan: { content: edited }, mode: "build" }
          : { mode: "build" },
      );
      if (ok) set({ outgoing: APPROVE_MESSAGE });
      return ok;
    },
    takeOutgoing: () => {
      const text = get().outgoing;
      if (text) set({ outgoing: null });
      return text;
    },
  };
});
