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

/** The person's conversation a subagent descends from (its MCP tool list is the one the child's is cut from). */
export async function rootConversationId(parentId: string): Promise<string> {
  let id = parentId;
  for (let depth = 0; depth < 8; depth++) {
    const parent: string | null | undefined = (await getConversation({ id }))?.parentId;
    if (!parent) return id;
    id = parent;
  }
  return id;
}
