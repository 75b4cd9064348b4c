// Before each step of a conversation with subagents: the answers of children that finished in the background since
// its last step, as one "System · Subagents" hint (stored in place like every hint, so the input stays append-only).
// Each answer is taken once (lib/db/subagents.ts), so it is told once. Children whose server died are settled first.
import { generateId } from "ai";
import { neutralizeHintTags } from "../agent/hints/neutralize-tags.ts";
import { HINT_MAX_CHARS } from "../agent/hints/render-hint.ts";
import { renderSubagentsHint, SUBAGENTS_HINT_SOURCE, SUBAGENTS_PER_HINT } from "../agent/subagents.ts";
import type { ChatChunk } from "../chat-message.ts";
import { now as clockNow } from "../clock.ts";
import { listChildren, takePendingChildren } from "../db/subagents.ts";
import { MAX_RUNNING_CHILDREN, settleOrphans } from "./subagent-runs.ts";

export type SubagentsHintChunk = Extract<ChatChunk, { type: "data-hint" }>;

/** The hint for this step, or undefined (the usual case: one small indexed query). */
export async function subagentsHint(conversationId: string, now: () => Date = clockNow): Promise<SubagentsHintChunk | undefined> {
  let children = await listChildren({ parentId: conversationId });
  if (children.length === 0) return undefined;
  if (await settleOrphans(children)) children = await listChildren({ parentId: conversationId });
  if (!children.some((c) => c.pending)) return undefined;
  const taken = await takePendingChildren({ parentId: conversationId, limit: SUBAGENTS_PER_HINT });
  if (taken.length === 0) return undefined;
  const running = children.filter((c) => c.status === "running").length;
  const finished = taken.map((c) => ({
    agentKey: c.agentKey,
    ...(c.run.label ? { label: c.run.label } : {}),
    status: c.status,
    answer: c.run.answer ?? "",
    ...(c.run.error ? { error: c.run.error } : {}),
  }));
  const { fields, text } = renderSubagentsHint(finished, { more: taken.left ?? 0, running, maxRunning: MAX_RUNNING_CHILDREN, maxChars: HINT_MAX_CHARS, neutralize: neutralizeHintTags });
  return { type: "data-hint", id: generateId(), data: { source: SUBAGENTS_HINT_SOURCE, fields, text, createdAt: now().toISOString() } };
}
