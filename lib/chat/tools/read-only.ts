// Which of a reply's tools only read: a call of one may simply run again, a call of any other is saved before it runs
// and, if its process died meanwhile, is never run again by a resume (lib/agent/resume-point.ts).
import { isBuiltInTool, TOOL_ACCESS } from "../../agent/tool-catalog.ts";
import type { FixedMcpTool } from "../../ai/mcp/mcp-tool-list.ts";

/**
 * AgentSpawn and AgentSend change nothing the plan-mode rules guard, but each starts a child's turn: run again, a
 * resumed parent would start a second child beside the one adopted (lib/chat/runs/resume-reply.ts). AgentList reads.
 */
const STARTS_WORK: ReadonlySet<string> = new Set(["AgentSpawn", "AgentSend"]);

export function readOnlyTools(mcpTools: readonly FixedMcpTool[]): (toolName: string) => boolean {
  const mcpReadOnly = new Set(mcpTools.filter((t) => t.annotations.readOnlyHint === true).map((t) => t.name));
  return (toolName) =>
    isBuiltInTool(toolName)
      ? TOOL_ACCESS[toolName] === "read" && !STARTS_WORK.has(toolName)
      : mcpReadOnly.has(toolName);
}
