// The demo model's MCP behaviour: "mcp <tool> <json arguments>" calls that MCP tool of the conversation (by its full
// name mcp__<server>__<tool>, <server>__<tool>, or the tool's own name), then quotes its result or error, so every
// MCP path works offline. Arguments that are not JSON are sent as they are (the harness reports them). Its answers
// name a tool as the rest of the screen does: "echo · everything" (tool · server).
import type { DemoToolCall, ReplySegment } from "./demo-tasks.ts";
import { withoutCallCount } from "../agent/tool-result.ts";
import { toolInWords } from "../tool-name.ts";

const MCP_REQUEST = /^mcp\s+([A-Za-z0-9_.-]+)(?:\s+([\s\S]+))?$/i;
const quote = (text: string) =>
  text
    .split("\n")
    .slice(0, 20)
    .map((l) => `> ${l}`)
    .join("\n");

/** The MCP tool of `offered` a request names, if any. */
export function offeredMcpTool(wanted: string, offered: readonly string[]): string | undefined {
  const mcp = offered.filter((n) => n.startsWith("mcp__"));
  return (
    mcp.find((n) => n === wanted) ??
    mcp.find((n) => n === `mcp__${wanted}`) ??
    mcp.find((n) => n.endsWith(`__${wanted}`))
  );
}

export function mcpDecision(
  segment: ReplySegment,
  offered: readonly string[],
): { text: string; calls?: DemoToolCall[] } | undefined {
  const request = MCP_REQUEST.exec(segment.personText.trim());
  if (!request) return undefined;
  const wanted = request[1]!;
  const name = offeredMcpTool(wanted, offered);
  const mcp = offered.filter((n) => n.startsWith("mcp__"));
  if (!name) {
    return {
      text: mcp.length
        ? `This conversation has no MCP tool called \`${wanted}\`. Its MCP tools are: ${mcp.map(toolInWords).join(", ")}.`
        : "This conversation has no MCP tools. Add a server in the workspace's settings, then start a new conversation (a conversation's tools are fixed at its first reply).",
    };
  }
  const argsText = request[2]?.trim() || "{}";
  const result = segment.results.findLast((r) => r.toolName === name);
  if (!segment.calledTools.includes(name) || !result) {
    let input: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(argsText);
      if (parsed && typeof parsed === "object" && !Array.isArray(parsed)) input = parsed as Record<string, unknown>;
    } catch {
      input = undefined;
    }
    return { text: "", calls: [input ? { toolName: name, input } : { toolName: name, input: {}, rawInput: argsText }] };
  }
  const text = withoutCallCount(result.text);
  return {
    text: `**${toolInWords(name)}** ${result.isError ? "didn't work" : "answered"}:\n\n${quote(text)}`,
  };
}
