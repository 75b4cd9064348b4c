// Plan mode for the API: the conversation's mode, its plan and the plan's versions.
import type { ConversationMode } from "../agent/plan-mode.ts";
import type { PlanData } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { listPlanVersions, type PlanVersion } from "../db/plans.ts";

export type PlanView = { mode: ConversationMode; plan: PlanData | null; planVersions: PlanVersion[] };

export const planDataOf = (v: PlanVersion): PlanData => ({
  content: v.content,
  updatedAt: v.createdAt,
  version: v.version,
  author: v.author,
});

export async function planView(conversationId: string, mode: ConversationMode): Promise<PlanView> {
  const planVersions = await listPlanVersions({ conversationId });
  const newest = planVersions.at(-1);
  return { mode, plan: newest ? planDataOf(newest) : null, planVersions };
}

/** The conversation's mode now (build when it does not exist). */
export async function conversationMode(conversationId: string): Promise<ConversationMode> {
  return (await getConversation({ id: conversationId }))?.mode ?? "build";
}
