// What the tools share within one reply: the conversation, the per-conversation call counter, its mode, and hooks
// that fire after a change (the reply streams a fresh task snapshot or plan to the panel).
import type { ConversationMode } from "../../agent/plan-mode.ts";
import type { ChatMessage, PlanData } from "../../chat-message.ts";

export type TaskToolContext = {
  conversationId: string;
  /** The conversation's workspace (the workspace tools read it from the conversation when absent). */
  workspaceId?: string;
  /** Returns the call number of this call of `toolName` in the conversation (1-based). */
  nextCallNumber: (toolName: string) => number;
  onTasksChanged: () => Promise<void> | void;
  /** The conversation's mode now (the person may switch it mid-reply); build when absent. */
  mode?: () => Promise<ConversationMode> | ConversationMode;
  onPlanChanged?: (plan: PlanData) => Promise<void> | void;
  /** Counts this call among the reply's calls of the same tool with the same arguments (1 for the first). */
  repeatCount?: (toolName: string, input: unknown) => number;
};

/** JSON with object keys sorted at every level: the same arguments give the same text whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.keys(value)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** Per reply: how many times each tool was called with the same arguments (keyed by name + canonical JSON). */
export function createRepeatCounter(): (toolName: string, input: unknown) => number {
  const counts = new Map<string, number>();
  return (toolName, input) => {
    const key = `${toolName}\u0000${canonicalJson(input)}`;
    const next = (counts.get(key) ?? 0) + 1;
    counts.set(key, next);
    return next;
  };
}

/** From this many identical calls in one reply on, the result ends with a warning. */
export const REPEAT_WARNING_FROM = 3;

export function repeatWarning(toolName: string, count: number): string {
  return `Warning: this is call ${count} of ${toolName} with these same arguments in this reply; it gives the same result again. Stop repeating it and try a different approach (other arguments, another tool, or answer with what you have).`;
}

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
