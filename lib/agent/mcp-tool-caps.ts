// How many MCP tools a conversation is offered, and which. A server's tools count in its own order up to a number per
// server; a tool whose input schema nests too deep or whose definition is too big is left out on its own; and all
// servers' tools together take at most a share of the model's window (the first that fit, servers in order). What is
// left out is kept with its reason, so that the agent is told once and the person sees why. Pure, and nothing here
// recurses: a server may send a schema nested 20,000 deep.

/** A server's tools offered to a conversation, at most (the first in the server's own order). */
export const MCP_TOOLS_PER_SERVER = 128;
/** Nesting of a tool's input schema, at most (the schema object itself is level 1). */
export const MCP_SCHEMA_MAX_DEPTH = 32;
/** A tool's definition as sent (JSON of its name, description and input schema), at most, in characters. */
export const MCP_TOOL_MAX_CHARS = 16 * 1024;
/** The MCP tools' definitions together take at most this share of the model's context window. */
export const MCP_TOOLS_WINDOW_SHARE = 0.25;

export type McpLeftOutReason = "name" | "schema-depth" | "definition-size" | "server-cap" | "window-share";

/** A tool left out of a conversation's list: the server's own name of it, and why (`window`: the window it missed). */
export type LeftOutMcpTool = { server: string; tool: string; reason: McpLeftOutReason; window?: number };

export const MCP_LEFT_OUT_REASONS: readonly McpLeftOutReason[] = [
  "name",
  "schema-depth",
  "definition-size",
  "server-cap",
  "window-share",
];

/** The tokens the MCP tools of a conversation on a window of `contextWindow` tokens may take together. */
export const mcpToolsBudget = (contextWindow: number): number =>
  Math.max(0, Math.floor(contextWindow * MCP_TOOLS_WINDOW_SHARE));

/**
 * A JSON value's nesting (arrays and objects; the value itself is level 1) against `maxDepth`, and a lower bound of its
 * JSON text's length, walked with a stack of its own and given up once past `maxChars`.
 */
export function measureJson(
  value: unknown,
  { maxDepth, maxChars }: { maxDepth: number; maxChars: number },
): { tooDeep: boolean; chars: number } {
  const stack: Array<[value: unknown, depth: number]> = [[value, 1]];
  let chars = 0;
  while (stack.length && chars <= maxChars) {
    const [current, depth] = stack.pop()!;
    if (typeof current === "string") chars += current.length + 2;
    else if (typeof current === "number" || typeof current === "boolean") chars += String(current).length;
    else if (current === null || current === undefined) chars += 4;
    else if (typeof current === "object") {
      if (depth > maxDepth) return { tooDeep: true, chars };
      if (Array.isArray(current)) {
        chars += 2 + Math.max(0, current.length - 1);
        for (const item of current) stack.push([item, depth + 1]);
      } else {
        const entries = Object.entries(current);
        chars += 2 + Math.max(0, entries.length - 1);
        for (const [key, item] of entries) {
          chars += key.length + 3;
          stack.push([item, depth + 1]);
        }
      }
    }
  }
  return { tooDeep: false, chars };
}

/**
 * The tools that fit `budget` tokens together, in order: each that fits is taken, one that does not is left out and
 * the next is tried (a big tool does not keep the smaller ones after it out).
 */
export function withinBudget<T>(
  tools: readonly T[],
  tokensOf: (tool: T) => number,
  budget: number,
): { kept: T[]; left: T[] } {
  const kept: T[] = [];
  const left: T[] = [];
  let used = 0;
  for (const tool of tools) {
    const tokens = tokensOf(tool);
    if (used + tokens <= budget) {
      kept.push(tool);
      used += tokens;
    } else left.push(tool);
  }
  return { kept, left };
}

/** Whether a stored value is a left-out tool (a row written by another version is read defensively). */
export function isLeftOutTool(value: unknown): value is LeftOutMcpTool {
  const v = value as Partial<LeftOutMcpTool> | null;
  return (
    !!v &&
    typeof v.server === "string" &&
    typeof v.tool === "string" &&
    MCP_LEFT_OUT_REASONS.includes(v.reason as McpLeftOutReason)
  );
}

/** Why a tool was left out, in a sentence about one tool (the status view's words). */
export function leftOutMessage(tool: Pick<LeftOutMcpTool, "reason" | "window">): string {
  switch (tool.reason) {
    case "name":
      return "Its name cannot be offered: another tool of this server has the same name once reduced to letters, digits, _ and -, or mcp__<server>__<tool> is longer than 64 characters.";
    case "schema-depth":
      return `Its input schema nests deeper than ${MCP_SCHEMA_MAX_DEPTH} levels.`;
    case "definition-size":
      return `Its definition is larger than the ${MCP_TOOL_MAX_CHARS / 1024} KiB one tool may take.`;
    case "server-cap":
      return `This server lists more usable tools than the ${MCP_TOOLS_PER_SERVER} one server may offer; the first ${MCP_TOOLS_PER_SERVER} in its order are offered.`;
    case "window-share":
      return `The MCP tools may take at most ${Math.round(MCP_TOOLS_WINDOW_SHARE * 100)} % of the model's context window${tool.window ? ` (${mcpToolsBudget(tool.window).toLocaleString("en-US")} of ${tool.window.toLocaleString("en-US")} tokens)` : ""}.`;
  }
}
