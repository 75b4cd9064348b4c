// What the tools share within one reply: the conversation, the per-conversation call counter, its mode, and hooks
// that fire after a change (the reply streams a fresh task snapshot or plan to the panel).
import type { ConversationMode } from "../../agent/plan-mode.ts";
import type { ChatMessage, PlanData } from "../../chat-message.ts";

export type TaskToolContext = {
  conversationId: string;
  /** Returns the call number of this call of `toolName` in the conversation (1-based). */
  nextCallNumber: (toolName: string) => number;
  onTasksChanged: () => Promise<void> | void;
  /** The conversation's mode now (the person may switch it mid-reply); build when absent. */
  mode?: () => Promise<ConversationMode> | ConversationMode;
  onPlanChanged?: (plan: PlanData) => Promise<void> | void;
};

/** Counts earlier calls of each tool in the stored conversation, once per reply; later calls count on in memory. */
export function createCallCounter(history: readonly ChatMessage[]): (toolName: string) => number {
  // Counted on the first tool call: most replies call none, and a long conversation has many parts.
  let counts: Map<string, number> | undefined;
  const countHistory = () => {
    const found = new Map<string, number>();
    for (const message of history) {
      for (const part of message.parts) {
        if (!part.type.startsWith("tool-")) continue;
        const name = part.type.slice(5);
        found.set(name, (found.get(name) ?? 0) + 1);
      }
    }
    return found;
  };
  return (toolName) => {
    counts ??= countHistory();
    const next = (counts.get(toolName) ?? 0) + 1;
    counts.set(toolName, next);
    return next;
  };
}
