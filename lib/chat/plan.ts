// Plan mode for the API and the reply: the conversation's mode, its plan and the plan's versions, and the Mode
// reminder a step carries when the agent has not been told the current mode yet (by the Mode reminders in the input the
// step sends).
import { generateId } from "ai";
import { type ConversationMode, MODE_HINT_SOURCE, modeReminderDue, renderModeReminder } from "../agent/plan-mode.ts";
import type { ChatChunk, HintData, PlanData } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { currentPlan, listPlanVersions, type PlanVersion } from "../db/plans.ts";
import { type AgentState, parseAgentState } from "./agent-state.ts";
import { now as clockNow } from "../clock.ts";

export type PlanView = { mode: ConversationMode; plan: PlanData | null; planVersions: PlanVersion[] };

export const planDataOf = (v: PlanVersion): PlanData => ({ content: v.content, updatedAt: v.createdAt, version: v.version, author: v.author });

export async function planView(conversationId: string, mode: ConversationMode): Promise<PlanView> {
  const planVersions = await listPlanVersions({ conversationId });
  const newest = planVersions.at(-1);
  return { mode, plan: newest ? planDataOf(newest) : null, planVersions };
}

/** The conversation's mode now (build when it does not exist). */
export async function conversationMode(conversationId: string): Promise<ConversationMode> {
  return (await getConversation({ id: conversationId }))?.mode ?? "build";
}

/** The conversation's harness state and mode, read together (one query). */
export async function readConversationState(conversationId: string): Promise<{ agentState: AgentState; mode: ConversationMode }> {
  const conversation = await getConversation({ id: conversationId });
  return { agentState: parseAgentState(conversation?.agentState), mode: conversation?.mode ?? "build" };
}

/**
 * The Mode reminder for this step, when one is due (see modeReminderDue), as a data-hint chunk. The BUILD reminder
 * carries the plan as it is now (the person may have edited it).
 */
export async function modeHintChunk({
  conversationId,
  mode,
  toldMode,
  compressed,
  now = clockNow(),
}: {
  conversationId: string;
  mode: ConversationMode;
  /** The mode the newest Mode reminder in the next call's input told (none: build). */
  toldMode: ConversationMode | undefined;
  compressed: boolean;
  now?: Date;
}): Promise<Extract<ChatChunk, { type: "data-hint" }> | undefined> {
  if (!modeReminderDue({ mode, toldMode, compressed })) return undefined;
  const plan = mode === "build" ? await currentPlan({ conversationId }) : null;
  const { fields, text } = renderModeReminder(mode, plan);
  const data: HintData = { source: MODE_HINT_SOURCE, fields, text, createdAt: now.toISOString() };
  return { type: "data-hint", id: generateId(), data };
}
