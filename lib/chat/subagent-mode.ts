// A subagent has no mode of its own: it plans exactly while the person's conversation above it plans, at every step
// (a plan approved while it works lifts the restriction for it too; one started later restricts it too).
import type { ConversationMode } from "../agent/plan-mode.ts";
import { getConversation } from "../db/conversations.ts";

/** The mode of the person's conversation at the top of `parentId`'s chain (read when a step or a write tool needs it). */
export async function inheritedMode(parentId: string): Promise<ConversationMode> {
  let mode: ConversationMode = "build";
  let id: string | null = parentId;
  for (let depth = 0; id && depth < 8; depth++) {
    const conversation = await getConversation({ id });
    if (!conversation) break;
    mode = conversation.mode;
    id = conversation.parentId;
  }
  return mode;
}

/** A subagent's parent, its parent's parent, … up to the person's conversation (the last). */
export async function ancestorIds(parentId: string): Promise<string[]> {
  const chain = [parentId];
  for (let depth = 0; depth < 8; depth++) {
    const parent: string | null | undefined = (await getConversation({ id: chain.at(-1)! }))?.parentId;
    if (!parent || chain.includes(parent)) break;
    chain.push(parent);
  }
  return chain;
}
