// A subagent's tool calls that wait for the person, as its parent shows them: the side panel's row and the parent's
// AgentSpawn / AgentSend row draw the card, whose answer goes to the child's own approvals route (lib/chat/approvals.ts).
import { neutralizeHintTags, neutralizeHintTagsDeep } from "../agent/hints/neutralize-tags.ts";
import type { ChildRecord } from "../db/subagents.ts";
import { getMessage } from "../db/messages.ts";
import { listPendingApprovals } from "../db/tool-approvals.ts";
import { replyLock } from "./live/reply-lock.ts";

export type ChildApproval = { toolCallId: string; toolName: string; input: unknown };

/** The call's arguments as the child's stored reply holds them (saved before it waits); none when not found. */
function inputOf(parts: readonly unknown[] | undefined, toolCallId: string): unknown {
  const part = (parts ?? []).find((p) => (p as { toolCallId?: unknown })?.toolCallId === toolCallId) as { input?: unknown } | undefined;
  return part?.input ?? {};
}

/**
 * Per running child, the calls its live reply waits on (a call of a reply that was stopped or whose server died
 * waits for nothing and is left out). Text is neutralised: a forged tag in the arguments stays text.
 */
export async function childApprovals(children: readonly ChildRecord[]): Promise<Map<string, ChildApproval[]>> {
  const running = children.filter((c) => c.status === "running");
  const rows = await listPendingApprovals({ conversationIds: running.map((c) => c.id) });
  const out = new Map<string, ChildApproval[]>();
  for (const childId of new Set(rows.map((r) => r.conversationId))) {
    const live = await replyLock().live(childId);
    const mine = rows.filter((r) => r.conversationId === childId && r.replyId === live?.replyId);
    if (!mine.length) continue;
    const reply = await getMessage({ conversationId: childId, id: mine[0]!.replyId });
    out.set(
      childId,
      mine.map((row) => ({
        toolCallId: row.toolCallId,
        toolName: neutralizeHintTags(row.toolName),
        input: neutralizeHintTagsDeep(inputOf(reply?.parts, row.toolCallId)),
      })),
    );
  }
  return out;
}
