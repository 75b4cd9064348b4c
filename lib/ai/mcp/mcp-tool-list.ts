// A server's tool definitions as the model reads them: named mcp__<server>__<tool>, descriptions and schemas
// neutralised (server text is model input like any other) and a description cut to its limit; and what each costs.
import { cleanAnnotations, type McpAnnotations, mcpToolName, modelDescription, modelSchema } from "../../agent/mcp-rules.ts";
import { countTokens } from "../../agent/token-count.ts";
import type { McpToolDefinition } from "./connect.ts";

/** One MCP tool of a conversation's fixed list: exactly what the model is offered, and where it goes. */
export type FixedMcpTool = {
  /** mcp__<server>__<tool> */
  name: string;
  server: string;
  /** The server's own name of the tool. */
  tool: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations: McpAnnotations;
};

export type McpToolView = { name: string; modelName: string | null; description: string; annotations: McpAnnotations; tokens: number };

/** The tools of one server as the model gets them, in the server's order; names that cannot be offered are left out. */
export function fixedToolsOf(server: string, definitions: readonly McpToolDefinition[]): FixedMcpTool[] {
  const out: FixedMcpTool[] = [];
  const seen = new Set<string>();
  for (const definition of definitions) {
    if (typeof definition?.name !== "string") continue;
    const name = mcpToolName(server, definition.name);
    if (!name || seen.has(name)) continue;
    seen.add(name);
    out.push({
      name,
      server,
      tool: definition.name,
      description: modelDescription(definition.description ?? definition.title),
      inputSchema: modelSchema(definition.inputSchema),
      annotations: cleanAnnotations(definition.annotations),
    });
  }
  return out;
}

/** A tool definition's share of every prompt (name, description and schema as sent). */
export function fixedToolTokens(tool: Pick<FixedMcpTool, "name" | "description" | "inputSchema">): number {
  return countTokens(JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.inputSchema }));
}

/** What GET …/mcp-servers/:name lists: each tool with its annotations and its token cost. */
export function describeMcpTools(server: string, definitions: readonly McpToolDefinition[]): McpToolView[] {
  const fixed = new Map(fixedToolsOf(server, definitions).map((t) => [t.tool, t]));
  return definitions
    .filter((d) => typeof d?.name === "string")
    .map((d) => {
      const f = fixed.get(d.name);
      return {
        name: d.name,
        modelName: f?.name ?? null,
        description: f?.description ?? modelDescription(d.description),
        annotations: cleanAnnotations(d.annotations),
        tokens: f ? fixedToolTokens(f) : 0,
      };
    });
}
