// Which of a reply's tools only read: a call of one may simply run again, a call of any other is saved before it runs
// and, if its process died meanwhile, is never run again by a resume (lib/agent/resume-point.ts).
import { AGENT_TOOL_NAMES, isBuiltInTool, TOOL_ACCESS } from "../../agent/tool-catalog.ts";
import type { FixedMcpTool } from "../../ai/mcp/mcp-tool-list.ts";

export function readOnlyTools(mcpTools: readonly FixedMcpTool[]): (toolName: string) => boolean {
  const mcpReadOnly = new Set(mcpTools.filter((t) => t.annotations.readOnlyHint === true).map((t) => t.name));
  // AgentSpawn and AgentSend change nothing the plan-mode rules guard, but each starts a child's turn: not twice.
  return (toolName) =>
    isBuiltInTool(toolName)
      ? TOOL_ACCESS[toolName] === "read" && !AGENT_TOOL_NAMES.includes(toolName)
      : mcpReadOnly.has(toolName);
}
