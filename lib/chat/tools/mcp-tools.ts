// A conversation's MCP tools as AI SDK tools named mcp__<server>__<tool>, offered exactly as fixed at its first call.
// Each call gets what every Hintline tool gives: the call counter, detailed errors (what was sent, what to do), the
// repeated-call warning, the 8,000-character cap and tag neutralisation. The call runs through the AI SDK's MCP
// client with the server's timeout, which each progress notification for the call restarts; plan mode refuses a
// tool not annotated read-only without running it.
import { type CallToolResult, MCPClientError } from "@ai-sdk/mcp";
import { jsonSchema, type Tool, tool } from "ai";
import { mcpCallDecision } from "../../agent/mcp-rules.ts";
import { planModeRefusal } from "../../agent/plan-mode.ts";
import { storable } from "../../nul.ts";
import { REPEAT_WARNING_FROM, repeatWarning, type ToolContext } from "./tool-context.ts";
import { ToolError } from "../../agent/tool-result.ts";
import { safeResult } from "./workspace-tool-support.ts";
import { describeMcpError } from "../../ai/mcp/connect.ts";
import { wordsFor } from "../../operator-words.ts";
import type { FixedMcpTool } from "../../ai/mcp/mcp-tool-list.ts";
import { resettableTimeout, watchProgress } from "../../ai/mcp/progress.ts";
import type { McpServerConfig } from "../../ai/mcp/server-config.ts";
import type { McpSessions } from "../../ai/mcp/sessions.ts";

export type McpToolContext = ToolContext & {
  /** The servers the conversation's workspace offers now, by name (a removed or disabled one refuses its tools). */
  servers: ReadonlyMap<string, McpServerConfig>;
  sessions: McpSessions;
  /**
   * Whether a call that needs the person's approval reaches execute only once they approved it. Until then such a
   * call is refused (never run unapproved).
   */
  approvalsAnswered?: boolean;
  /** Whether the server now defines the tool otherwise than the person approved (the call is blocked until they review it). */
  toolChanged?: (server: McpServerConfig, tool: string) => Promise<boolean>;
  /** Registers a running call so that the person can cancel it alone (the reply goes on). */
  startCall?: (toolCallId: string) => { signal: AbortSignal; done: () => void };
};

/** Why a call failed, as the agent reads it: the person's words, never a variable to set (lib/operator-words.ts). */
const mcpFailure = (error: unknown) => wordsFor(describeMcpError(error), false);

/** JSON-RPC's "invalid params". */
const INVALID_PARAMS = -32602;
const SHOWN_RESULT_BLOB = "not shown";
/** A call's progress reaches its tool row at most this often (a server may report it far more often). */
const PROGRESS_SHOWN_EVERY_MS = 250;
/** However often a server reports progress, a call ends after this long (the MCP spec asks for such a limit). */
export const MCP_CALL_LIMIT_MINUTES = 60;

/** A call's result as text: text parts as they are, anything else named in one line; structured content as JSON. */
export function mcpResultText(result: CallToolResult): string {
  const lines: string[] = [];
  const content = Array.isArray((result as { content?: unknown }).content)
    ? (result as { content: Record<string, unknown>[] }).content
    : [];
  for (const part of content) {
    if (part.type === "text" && typeof part.text === "string") lines.push(part.text);
    else if ((part.type === "image" || part.type === "audio") && typeof part.data === "string") {
      lines.push(
        `[${part.type} ${String(part.mimeType ?? "")}, about ${Math.floor((part.data.length * 3) / 4).toLocaleString("en-US")} bytes: ${SHOWN_RESULT_BLOB}]`,
      );
    } else if (part.type === "resource" && part.resource && typeof part.resource === "object") {
      const r = part.resource as { uri?: unknown; text?: unknown; mimeType?: unknown };
      lines.push(
        typeof r.text === "string"
          ? `[resource ${String(r.uri ?? "")}]\n${r.text}`
          : `[resource ${String(r.uri ?? "")} (${String(r.mimeType ?? "binary")}): ${SHOWN_RESULT_BLOB}]`,
      );
    } else if (part.type === "resource_link") {
      lines.push(`[resource link ${String(part.uri ?? "")}${part.name ? ` (${String(part.name)})` : ""}]`);
    }
  }
  const structured = (result as { structuredContent?: unknown }).structuredContent;
  if (!lines.length && structured !== undefined) lines.push(JSON.stringify(structured));
  return lines.join("\n") || "(the tool returned no content)";
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The parameters of a schema in one short line, for the advice of an InvalidArgumentsError. */
function parameterHint(schema: Record<string, unknown>): string {
  const properties = isObject(schema.properties) ? Object.keys(schema.properties) : [];
  const required = Array.isArray(schema.required)
    ? schema.required.filter((r): r is string => typeof r === "string")
    : [];
  if (!properties.length) return "it takes no parameters";
  return `parameters: ${properties.slice(0, 12).join(", ")}${required.length ? `; required: ${required.join(", ")}` : ""}`;
}

/** One call of an MCP tool: what it calls, with what, and how it fails. */
type McpCall = {
  definition: FixedMcpTool;
  ctx: McpToolContext;
  raw: unknown;
  fail: (type: string, text: string, advice: string) => ToolError;
};
type McpClient = Awaited<ReturnType<McpSessions["client"]>>;

function mcpTool(definition: FixedMcpTool, ctx: McpToolContext): Tool {
  const { name } = definition;
  const execute = async (
    raw: unknown,
    options: { abortSignal?: AbortSignal; toolCallId?: string },
  ): Promise<string> => {
    const call = ctx.nextCallNumber(name);
    const fail = (type: string, text: string, advice: string) =>
      new ToolError({ type, text: `${type}: ${text}`, args: raw, advice, toolName: name, call });
    const mcpCall: McpCall = { definition, ctx, raw, fail };
    const server = await callableServer(mcpCall, call);
    const client = await connectUnchanged(mcpCall, server);
    const result = await callTool(mcpCall, server, client, options);
    const text = mcpResultText(result);
    if (result.isError) {
      throw fail(
        "McpToolError",
        `${definition.tool} on MCP server ${server.name} reported an error: ${text}`,
        "Read the error: fix the arguments or try another approach rather than repeating the same call.",
      );
    }
    return safeResult(text, name, call);
  };
  return tool({
    description: definition.description,
    // The server checks the arguments; the AI SDK hands any JSON on, so a bad call gets the detailed error above.
    inputSchema: jsonSchema<unknown>(definition.inputSchema as Parameters<typeof jsonSchema>[0], {
      validate: (value) => ({ success: true, value }),
    }),
    execute: async (input, options) => {
      const warn = (text: string) => {
        const repeats = ctx.repeatCount?.(name, input, text) ?? 0;
        return repeats >= REPEAT_WARNING_FROM ? `${text}\n${repeatWarning(name, repeats)}` : text;
      };
      try {
        return warn(await execute(input, options));
      } catch (error) {
        if (error instanceof ToolError) error.message = warn(error.message);
        throw error;
      }
    },
  });
}

/** The call's server, when the call may run: arguments an object, the server there, the mode and approvals allowing. */
async function callableServer({ definition, ctx, raw, fail }: McpCall, call: number): Promise<McpServerConfig> {
  const { name } = definition;
  if (!isObject(raw)) {
    throw fail(
      "InvalidArgumentsError",
      `The arguments are not a JSON object${typeof raw === "string" ? " (not valid JSON)" : ""}, so nothing was sent to the server.`,
      `Call ${name} again with a JSON object (${parameterHint(definition.inputSchema)}).`,
    );
  }
  const server = ctx.servers.get(definition.server);
  if (!server?.enabled) {
    throw fail(
      "McpServerUnavailableError",
      `MCP server ${definition.server} is no longer available to this conversation (removed or disabled), so nothing was run.`,
      "Do without this tool; tell the person if you need it.",
    );
  }
  const mode = (await ctx.mode?.()) ?? "build";
  const decision = mcpCallDecision({
    approval: server.approval,
    readOnly: definition.annotations.readOnlyHint === true,
    alwaysAllowed: server.alwaysAllow.includes(definition.tool),
    mode,
  });
  if (decision === "plan-refusal") {
    const refusal = planModeRefusal(name, { child: ctx.child });
    throw new ToolError({ ...refusal, args: raw, toolName: name, call });
  }
  if (decision === "ask" && !ctx.approvalsAnswered) {
    throw fail(
      "ApprovalRequiredError",
      `${definition.tool} on MCP server ${server.name} needs the person's approval (the server's approval setting is "${server.approval}"), so it was not run.`,
      "Tell the person what you wanted to do with it; they can allow the tool or set the server's approval to always.",
    );
  }
  return server;
}

/** A client of the server, when the tool is defined as the person approved it. */
async function connectUnchanged({ definition, ctx, fail }: McpCall, server: McpServerConfig): Promise<McpClient> {
  let client: McpClient;
  try {
    client = await ctx.sessions.client(server);
  } catch (error) {
    throw fail(
      "McpConnectionError",
      `Could not reach MCP server ${server.name}: ${mcpFailure(error)}. Nothing was run.`,
      "Try again later or do without this tool; tell the person if it keeps failing.",
    );
  }
  let changed = false;
  try {
    changed = (await ctx.toolChanged?.(server, definition.tool)) ?? false;
  } catch (error) {
    ctx.sessions.forget(server.name);
    throw fail(
      "McpProtocolError",
      `MCP server ${server.name} could not list its tools, so ${definition.tool} was not run: ${mcpFailure(error)}`,
      "Try once more; if it fails again, do without this tool and tell the person.",
    );
  }
  if (changed) {
    throw fail(
      "McpToolChangedError",
      `MCP server ${server.name} now defines ${definition.tool} otherwise than the person approved it (its description, input schema or annotations changed), so it was not run. It stays blocked until the person reviews the change in the workspace's MCP settings.`,
      "Do not call it again; tell the person that the tool changed and needs their review before you can use it.",
    );
  }
  return client;
}

/** The call itself, under the server's timeout (reset by progress), the person's cancel and the reply's stop. */
async function callTool(
  { definition, ctx, raw, fail }: McpCall,
  server: McpServerConfig,
  client: McpClient,
  options: { abortSignal?: AbortSignal; toolCallId?: string },
): Promise<CallToolResult> {
  const { name } = definition;
  // The server's timeout counts from the call or from its latest progress notification.
  const timeout = resettableTimeout(
    server.timeoutSeconds * 1000,
    Math.max(server.timeoutSeconds, MCP_CALL_LIMIT_MINUTES * 60) * 1000,
  );
  const timer = timeout.signal;
  let shown = 0;
  const progress = watchProgress(client, storable(raw) as Record<string, unknown>, (reported) => {
    timeout.reset();
    const now = Date.now();
    if (!options.toolCallId || !ctx.onToolProgress || now - shown < PROGRESS_SHOWN_EVERY_MS) return;
    shown = now;
    ctx.onToolProgress({ toolCallId: options.toolCallId, ...reported });
  });
  const running = options.toolCallId ? ctx.startCall?.(options.toolCallId) : undefined;
  const signal = AbortSignal.any([
    timer,
    ...(options.abortSignal ? [options.abortSignal] : []),
    ...(running ? [running.signal] : []),
  ]);
  const started = Date.now();
  try {
    return await client.callTool({ name: definition.tool, arguments: progress.args, options: { signal } });
  } catch (error) {
    if (options.abortSignal?.aborted) throw error;
    if (running?.signal.aborted) {
      const seconds = Math.round((Date.now() - started) / 1000);
      throw fail(
        "McpCallCancelledError",
        `The person cancelled ${definition.tool} on MCP server ${server.name} after ${seconds} s; it was stopped and gave no result.`,
        "Do not repeat it unless the person asks; go on without its result, or ask them what they want instead.",
      );
    }
    if (timer.aborted && timeout.reachedLimit()) {
      throw fail(
        "McpTimeoutError",
        `MCP server ${server.name} kept reporting progress on ${definition.tool} but gave no result within ${MCP_CALL_LIMIT_MINUTES} minutes, the most any call may take; the call was cancelled.`,
        "Do not repeat it as it is: split the work into smaller calls, or tell the person the tool is too slow.",
      );
    }
    if (timer.aborted) {
      throw fail(
        "McpTimeoutError",
        `MCP server ${server.name} did not answer ${definition.tool} or report progress within ${server.timeoutSeconds} s; the call was cancelled.`,
        "Do not repeat it as it is: try smaller input, another approach, or tell the person the tool is too slow.",
      );
    }
    if (MCPClientError.isInstance(error) && error.code === INVALID_PARAMS) {
      throw fail(
        "InvalidArgumentsError",
        `MCP server ${server.name} refused the arguments: ${mcpFailure(error)}`,
        `Call ${name} again with arguments that match its schema (${parameterHint(definition.inputSchema)}).`,
      );
    }
    // The connection may be gone (a server that died): the next call connects again.
    ctx.sessions.forget(server.name);
    throw fail(
      "McpProtocolError",
      `The call to ${definition.tool} on MCP server ${server.name} failed: ${mcpFailure(error)}`,
      "Try once more; if it fails again, do without this tool and tell the person.",
    );
  } finally {
    timeout.clear();
    progress.stop();
    running?.done();
  }
}

/** The conversation's MCP tools, in the fixed list's order. */
export function createMcpTools(list: readonly FixedMcpTool[], ctx: McpToolContext): Record<string, Tool> {
  return Object.fromEntries(list.map((definition) => [definition.name, mcpTool(definition, ctx)]));
}
