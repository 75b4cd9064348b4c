// A server's tool definitions as the model reads them: named mcp__<server>__<tool>, descriptions and schemas
// neutralised (server text is model input like any other) and a description cut to its limit; and what each costs.
// Tools beyond the caps of lib/agent/mcp-tool-caps.ts are left out with their reason: a schema is measured without
// recursing before anything walks it, so one nested 20,000 deep is a reason, never a crash.
import {
  type LeftOutMcpTool,
  leftOutMessage,
  MCP_SCHEMA_MAX_DEPTH,
  MCP_TOOL_MAX_CHARS,
  MCP_TOOLS_PER_SERVER,
  type McpLeftOutReason,
  mcpToolsBudget,
  measureJson,
  withinBudget,
} from "../../agent/mcp-tool-caps.ts";
import {
  cleanAnnotations,
  type McpAnnotations,
  mcpToolName,
  modelDescription,
  modelSchema,
} from "../../agent/mcp-rules.ts";
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

export type McpToolView = {
  name: string;
  modelName: string | null;
  description: string;
  annotations: McpAnnotations;
  tokens: number;
  /** Why a conversation is not offered the tool (the conversation's window may leave out more: see its hint). */
  leftOut?: { reason: McpLeftOutReason; message: string };
};

/** A definition's verdict: the tool as offered, or why it cannot be. */
type Verdict = { definition: McpToolDefinition; tool?: FixedMcpTool; reason?: McpLeftOutReason };

/** The definition as sent, in characters (what MCP_TOOL_MAX_CHARS bounds). */
const definitionText = (tool: Pick<FixedMcpTool, "name" | "description" | "inputSchema">) =>
  JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.inputSchema });

/** Why a schema cannot be offered, measured without walking it recursively (undefined: it may be). */
function schemaReason(definition: McpToolDefinition): McpLeftOutReason | undefined {
  const shape = measureJson(definition.inputSchema ?? {}, {
    maxDepth: MCP_SCHEMA_MAX_DEPTH,
    maxChars: MCP_TOOL_MAX_CHARS,
  });
  return shape.tooDeep ? "schema-depth" : shape.chars > MCP_TOOL_MAX_CHARS ? "definition-size" : undefined;
}

/** The tool as the model gets it, or why it cannot be offered (its schema is measured before it is walked). */
function fixedTool(server: string, name: string, definition: McpToolDefinition): FixedMcpTool | McpLeftOutReason {
  const reason = schemaReason(definition);
  if (reason) return reason;
  const tool = {
    name,
    server,
    tool: definition.name,
    description: modelDescription(definition.description ?? definition.title),
    inputSchema: modelSchema(definition.inputSchema),
    annotations: cleanAnnotations(definition.annotations),
  };
  return definitionText(tool).length > MCP_TOOL_MAX_CHARS ? "definition-size" : tool;
}

/** Every named definition in the server's order, offered or left out (`perServer`: how many may be offered). */
function verdictsOf(server: string, definitions: readonly McpToolDefinition[], perServer: number): Verdict[] {
  const verdicts: Verdict[] = [];
  const seen = new Set<string>();
  let offered = 0;
  for (const definition of definitions) {
    if (typeof definition?.name !== "string") continue;
    const name = mcpToolName(server, definition.name);
    if (!name || seen.has(name)) {
      verdicts.push({ definition, reason: "name" });
      continue;
    }
    seen.add(name);
    // Past the cap a tool is only measured (a server may list thousands): its definition is not built.
    const tool =
      offered >= perServer ? (schemaReason(definition) ?? "server-cap") : fixedTool(server, name, definition);
    if (typeof tool === "string") verdicts.push({ definition, reason: tool });
    else {
      offered++;
      verdicts.push({ definition, tool });
    }
  }
  return verdicts;
}

/**
 * The tools of one server as the model gets them, in the server's order, at most `perServer` of them (the
 * workspace's catalog, which only compares definitions, passes Infinity); the others with their reasons.
 */
export function offeredToolsOf(
  server: string,
  definitions: readonly McpToolDefinition[],
  perServer = MCP_TOOLS_PER_SERVER,
): { tools: FixedMcpTool[]; leftOut: LeftOutMcpTool[] } {
  const tools: FixedMcpTool[] = [];
  const leftOut: LeftOutMcpTool[] = [];
  for (const verdict of verdictsOf(server, definitions, perServer)) {
    if (verdict.tool) tools.push(verdict.tool);
    else leftOut.push({ server, tool: verdict.definition.name, reason: verdict.reason ?? "name" });
  }
  return { tools, leftOut };
}

/** The tools of one server as the model gets them (see offeredToolsOf). */
export function fixedToolsOf(
  server: string,
  definitions: readonly McpToolDefinition[],
  perServer = MCP_TOOLS_PER_SERVER,
): FixedMcpTool[] {
  return offeredToolsOf(server, definitions, perServer).tools;
}

/** A tool definition's share of every prompt (name, description and schema as sent). */
export function fixedToolTokens(tool: Pick<FixedMcpTool, "name" | "description" | "inputSchema">): number {
  return countTokens(definitionText(tool));
}

/** A conversation's MCP tools, and those left out of them with their reasons. */
export type McpToolList = { tools: FixedMcpTool[]; leftOut: LeftOutMcpTool[] };

/**
 * The tools of `list` that fit the MCP share of a window of `contextWindow` tokens (the first that fit, in order);
 * those that do not join the left-out ones, each server's after its own.
 */
export function withinWindowShare(list: McpToolList, contextWindow: number): McpToolList {
  const { kept, left } = withinBudget(list.tools, fixedToolTokens, mcpToolsBudget(contextWindow));
  if (!left.length) return list;
  const missed = left.map(
    (t): LeftOutMcpTool => ({ server: t.server, tool: t.tool, reason: "window-share", window: contextWindow }),
  );
  const all = [...list.leftOut, ...missed];
  const servers = [...new Set([...list.tools, ...all].map((t) => t.server))];
  return { tools: kept, leftOut: servers.flatMap((s) => all.filter((t) => t.server === s)) };
}

/** What GET …/mcp-servers/:name lists: each tool with its annotations, its token cost, and why it is left out. */
export function describeMcpTools(server: string, definitions: readonly McpToolDefinition[]): McpToolView[] {
  return verdictsOf(server, definitions, MCP_TOOLS_PER_SERVER).map(({ definition, tool, reason }): McpToolView => {
    // A tool over the server's cap is priced as it would be offered; one that cannot be offered costs nothing.
    const priced = tool ?? (reason === "server-cap" ? fixedToolsOf(server, [definition]).at(0) : undefined);
    return {
      name: definition.name,
      modelName: tool?.name ?? (reason === "server-cap" ? (priced?.name ?? null) : null),
      description: priced?.description ?? modelDescription(definition.description),
      annotations: cleanAnnotations(definition.annotations),
      tokens: priced ? fixedToolTokens(priced) : 0,
      ...(reason ? { leftOut: { reason, message: leftOutMessage({ reason }) } } : {}),
    };
  });
}
