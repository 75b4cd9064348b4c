// A subagent's tool calls that wait for the person, as its parent shows them: the side panel's row and the parent's
// AgentSpawn / AgentSend row draw the card, whose answer goes to the waiting conversation's own approvals route
// (lib/chat/approvals.ts). A grandchild's call shows under the child it descends from (the person sees only the
// conversation's own children), with the grandchild's id to answer at.
import { neutralizeHintTags, neutralizeHintTagsDeep } from "../agent/hints/neutralize-tags.ts";
import type { ChildApproval } from "../chat-message.ts";
import { type ChildRecord, listChildren } from "../db/subagents.ts";
import { getMessage } from "../db/messages.ts";
import { listPendingApprovals } from "../db/tool-approvals.ts";
import { replyLock } from "./live/reply-lock.ts";

/** How deep below a child its waiting descendants are looked for (HINTLINE_MAX_AGENT_DEPTH is 2 by default). */
const DESCENDANT_LEVELS = 3;

/** The call's arguments as the waiting reply holds them (saved before it waits); none when not found. */
function inputOf(parts: readonly unknown[] | undefined, toolCallId: string): unknown {
  const part = (parts ?? []).find((p) => (p as { toolCallId?: unknown })?.toolCallId === toolCallId) as
    | { input?: unknown }
    | undefined;
  return part?.input ?? {};
}

/** Each running child with its running descendants: the conversations whose calls show on its row. */
async function runningFamilies(children: readonly ChildRecord[]): Promise<Map<string, ChildRecord[]>> {
  const families = new Map<string, ChildRecord[]>();
  for (const child of children.filter((c) => c.status === "running")) {
    const family = [child];
    let level = [child];
    for (let depth = 1; depth < DESCENDANT_LEVELS && level.length; depth++) {
      level = (await Promise.all(level.map((c) => listChildren({ parentId: c.id }))))
        .flat()
        .filter((c) => c.status === "running");
      family.push(...level);
    }
    families.set(child.id, family);
  }
  return families;
}

/**
 * Per running child, the calls its live reply (or a running descendant's) waits on; a call of a reply that was
 * stopped or whose server died waits for nothing and is left out. Text is neutralised: a forged tag stays text.
 */
export async function childApprovals(children: readonly ChildRecord[]): Promise<Map<string, ChildApproval[]>> {
  const families = await runningFamilies(children);
  const members = [...families.values()].flat();
  const rows = await listPendingApprovals({ conversationIds: members.map((c) => c.id) });
  const byConversation = new Map<string, ChildApproval[]>();
  for (const conversationId of new Set(rows.map((r) => r.conversationId))) {
    const live = await replyLock().live(conversationId);
    const mine = rows.filter((r) => r.conversationId === conversationId && r.replyId === live?.replyId);
    if (!mine.length) continue;
    const reply = await getMessage({ conversationId, id: mine[0]!.replyId });
    const agentKey = members.find((c) => c.id === conversationId)?.agentKey ?? "";
    byConversation.set(
      conversationId,
      mine.map((row) => ({
        conversationId,
        agentKey,
        toolCallId: row.toolCallId,
        toolName: neutralizeHintTags(row.toolName),
        input: neutralizeHintTagsDeep(inputOf(reply?.parts, row.toolCallId)),
      })),
    );
  }
  const out = new Map<string, ChildApproval[]>();
  for (const [childId, family] of families) {
    const waiting = family.flatMap((c) => byConversation.get(c.id) ?? []);
    if (waiting.length) out.set(childId, waiting);
  }
  return out;
}
