// Which MCP tools a subagent gets, the pure rules. An agent definition names them in its `tools` beside the built-in
// ones: `mcp__<server>__<tool>` (one tool), `mcp__<server>__*` (a server's tools), `mcp__*` (every MCP tool) or
// `mcp:read-only` (every tool its server annotates readOnlyHint). A definition without `tools` gets `mcp:read-only`.
// The child's list is cut from its root conversation's fixed list, in that list's order, so that what the child is
// offered is what the person's conversation was offered (and approved), and it stays the same on every call.
import { MCP_SERVER_NAME_PATTERN, type McpAnnotations, TOOL_NAME_MAX_CHARS } from "./mcp-rules.ts";

/** Every MCP tool annotated read-only: a child's MCP tools when its definition names no tools. */
export const MCP_READ_ONLY_ENTRY = "mcp:read-only";
export const MCP_ALL_ENTRY = "mcp__*";
export const DEFAULT_CHILD_MCP_TOOLS: readonly string[] = [MCP_READ_ONLY_ENTRY];

const SERVER = MCP_SERVER_NAME_PATTERN.source.slice(1, -1);
const ENTRY = new RegExp(`^mcp__${SERVER}__(?:\\*|[A-Za-z0-9_-]+)$`);

/** Whether a `tools` entry of an agent definition names MCP tools (in one of the forms above). */
export function isMcpToolEntry(entry: string): boolean {
  if (entry === MCP_READ_ONLY_ENTRY || entry === MCP_ALL_ENTRY) return true;
  return entry.length <= TOOL_NAME_MAX_CHARS && ENTRY.test(entry);
}

type ListedTool = { name: string; server: string; annotations: McpAnnotations };

/** Whether one tool of the list is allowed by the entries. */
export function mcpToolAllowed(tool: ListedTool, entries: readonly string[]): boolean {
  return entries.some(
    (entry) =>
      entry === MCP_ALL_ENTRY ||
      entry === tool.name ||
      entry === `mcp__${tool.server}__*` ||
      (entry === MCP_READ_ONLY_ENTRY && tool.annotations?.readOnlyHint === true),
  );
}

/** The tools of `list` the entries allow, in the list's order. */
export function childMcpTools<T extends ListedTool>(list: readonly T[], entries: readonly string[]): T[] {
  return list.filter((tool) => mcpToolAllowed(tool, entries));
}
