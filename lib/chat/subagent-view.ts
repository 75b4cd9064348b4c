// What a conversation's view says about subagents: its children (`agents`), and for a child its parent and key.
import { ApiError } from "../api/errors.ts";
import type { AgentSummary, ChildApproval } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { type ChildRecord, getChild, listChildren } from "../db/subagents.ts";
import { childApprovals } from "./subagent-approvals.ts";
import { settleOrphans } from "./subagent-runs.ts";

export const agentSummaryOf = (child: ChildRecord, approvals?: ChildApproval[]): AgentSummary => ({
  agentKey: child.agentKey,
  agentId: child.run.agentId,
  ...(child.run.label ? { label: child.run.label } : {}),
  conversationId: child.id,
  status: child.status,
  startedAt: child.run.startedAt ?? child.createdAt,
  ...(child.status !== "running" && child.run.endedAt ? { endedAt: child.run.endedAt } : {}),
  tokens: child.run.tokens ?? 0,
  ...(child.run.lastTool ? { lastTool: child.run.lastTool } : {}),
  ...(child.run.toolCallId ? { toolCallId: child.run.toolCallId } : {}),
  ...(approvals?.length ? { approvals } : {}),
});

export type SubagentFields = { agents: AgentSummary[]; parentId?: string; agentKey?: string };

/** The conversation's children, oldest first, and its own place when it is a child. */
export async function subagentFields(conversationId: string): Promise<SubagentFields> {
  let [children, self] = await Promise.all([
    listChildren({ parentId: conversationId }),
    getChild({ id: conversationId }),
  ]);
  // A child whose server died while it ran reads as stopped (its parent is told at its next step).
  if (await settleOrphans(children)) children = await listChildren({ parentId: conversationId });
  const waiting = await childApprovals(children);
  return {
    agents: children.map((child) => agentSummaryOf(child, waiting.get(child.id))),
    ...(self ? { parentId: self.parentId, agentKey: self.agentKey } : {}),
  };
}

/** GET /api/conversations/:id/agents: the same fields, without the rest of the conversation's view. */
export async function agentsView(conversationId: string): Promise<SubagentFields> {
  if (!(await getConversation({ id: conversationId })))
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  return subagentFields(conversationId);
}
