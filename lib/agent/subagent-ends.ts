// A subagent's end, told to the person when it happens (the side panel's list changed): "“summarise the notes”
// finished", by its whole label, else its agent. Pure: the store compares the list before and after a change.
import type { AgentSummary } from "../chat-message.ts";

export type AgentEndNotice = { conversationId: string; text: string };

const ENDED_WORDS: Record<string, string> = { done: "finished", error: "ended with an error", stopped: "was stopped" };

/** "“summarise the notes” finished", "general-purpose ended with an error". */
export function endedInWords(child: { agentId: string; label?: string; status: string }): string {
  return `${child.label ? `“${child.label}”` : child.agentId} ${ENDED_WORDS[child.status] ?? child.status}`;
}

/**
 * The children that ended between `before` and `after`, each said in words: those running before, and those not listed
 * before at all (started and ended between two looks, as a quick child does).
 */
export function endedNotices(before: readonly AgentSummary[], after: readonly AgentSummary[]): AgentEndNotice[] {
  const endedBefore = new Set(before.filter((a) => a.status !== "running").map((a) => a.conversationId));
  return after
    .filter((a) => a.status !== "running" && !endedBefore.has(a.conversationId))
    .map((a) => ({ conversationId: a.conversationId, text: endedInWords(a) }));
}
