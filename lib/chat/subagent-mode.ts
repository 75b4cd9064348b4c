// A subagent plans while any conversation above it plans: a child of a planning parent cannot write.
import type { ConversationMode } from "../agent/plan-mode.ts";
import { getConversation } from "../db/conversations.ts";

/** "plan" when the child or any of its ancestors is in plan mode (read when a write tool runs), else "build". */
export async function inheritedMode(conversationId: string, parentId: string): Promise<ConversationMode> {
  let id: string | null = conversationId;
  for (let depth = 0; id && depth < 8; depth++) {
    const conversation = await getConversation({ id });
    if (conversation?.mode === "plan") return "plan";
    id = depth === 0 ? parentId : (conversation?.parentId ?? null);
  }
  return "build";
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
