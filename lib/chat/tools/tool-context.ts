// What the tools share within one reply: the conversation, the per-conversation call counter, its mode, and hooks
// that fire after a change (the reply streams a fresh task snapshot or plan to the panel).
import type { ConversationMode } from "../../agent/plan-mode.ts";
import type { ChatMessage, PlanData, ToolProgressData } from "../../chat-message.ts";
import type { SubagentHost } from "../subagent-runs.ts";
import { withoutCallCount } from "../../agent/tool-result.ts";

export type ToolContext = {
  conversationId: string;
  /** The conversation's workspace (the workspace tools read it from the conversation when absent). */
  workspaceId?: string;
  /** Returns the call number of this call of `toolName` in the conversation (1-based). */
  nextCallNumber: (toolName: string) => number;
  onTasksChanged: () => Promise<void> | void;
  /** The conversation's mode now (the person may switch it mid-reply); build when absent. */
  mode?: () => Promise<ConversationMode> | ConversationMode;
  /** A subagent's conversation (a refusal in plan mode does not send it to PlanWrite, which it does not have). */
  child?: boolean;
  onPlanChanged?: (plan: PlanData) => Promise<void> | void;
  /** A running call's progress as its (MCP) server reports it, for the call's tool row. */
  onToolProgress?: (progress: ToolProgressData) => void;
  /** The conversation's subagents (AgentSpawn, AgentSend, AgentList); absent: those tools say they are unavailable. */
  subagents?: SubagentHost;
  /** How many calls of the tool with the same arguments gave this same result in a row in the reply (1: the first). */
  repeatCount?: (toolName: string, input: unknown, result: string) => number;
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

/**
 * Per reply: how many calls of each tool with the same arguments (keyed by name + canonical JSON) gave the same
 * result one after another — 1 for the first, and again 1 whenever the result differs from the previous such call's
 * (a TaskList after each TaskUpdate is not a repeat). The call counter at the end of a result is not compared.
 */
export function createRepeatCounter(): (toolName: string, input: unknown, result: string) => number {
  const last = new Map<string, { result: string; count: number }>();
  return (toolName, input, result) => {
    const key = `${toolName}\u0000${canonicalJson(input)}`;
    const text = withoutCallCount(result);
    const previous = last.get(key);
    const count = previous?.result === text ? previous.count + 1 : 1;
    last.set(key, { result: text, count });
    return count;
  };
}

/** From this many identical calls in one reply with the same result each time on, the result ends with a warning. */
export const REPEAT_WARNING_FROM = 3;

export function repeatWarning(toolName: string, count: number): string {
  return `Warning: this is call ${count} of ${toolName} with these same arguments in this reply, and it gave the same result as the one before. Stop repeating it and try a different approach (other arguments, another tool, or answer with what you have).`;
}

/** Counts earlier calls of each tool in the stored conversation, once per reply; later calls count on in memory. */
export function createCallCounter(history: readonly ChatMessage[]): (toolName: string) => number {
  // Counted on the first tool call: most replies call none, and a long conversation has many parts.
  let counts: Map<string, number> | undefined;
  const countHistory = () => {
    const found = new Map<string, number>();
    for (const message of history) {
      for (const part of message.parts) {
        // A call of an unknown tool is stored as a dynamic tool part under the name the model used.
        const name = part.type.startsWith("tool-")
          ? part.type.slice(5)
          : part.type === "dynamic-tool"
            ? (part as { toolName?: string }).toolName
            : undefined;
        if (!name) continue;
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
