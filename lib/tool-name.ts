// Pure: a tool's name read apart (the model's exact `mcp__<server>__<tool>`) and as a person reads it.

/** The server and tool of an `mcp__<server>__<tool>` name, or null for any other name. */
export function parseMcpToolName(name: string): { server: string; tool: string } | null {
  const match = /^mcp__([a-z0-9]+(?:-[a-z0-9]+)*)__(.+)$/.exec(name);
  return match ? { server: match[1]!, tool: match[2]! } : null;
}

/** A tool's name as a person reads it: "echo · everything" (tool · server) for an MCP tool, else the name itself. */
export function toolInWords(name: string): string {
  const mcp = parseMcpToolName(name);
  return mcp ? `${mcp.tool} · ${mcp.server}` : name;
}
