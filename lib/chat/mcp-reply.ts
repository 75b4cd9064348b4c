// A reply's MCP tools: the conversation's list, fixed at its first model call (every enabled server of its workspace
// and the operator's, connected in parallel; one that fails is left out; the list cut to the caps of
// lib/agent/mcp-tool-caps.ts, what is left out kept with its reasons), and the connections its calls use.
import type { Tool } from "ai";
import { isLeftOutTool } from "../agent/mcp-tool-caps.ts";
import { mcpCallDecision } from "../agent/mcp-rules.ts";
import type { ChatMessage } from "../chat-message.ts";
import { listMcpTools, type McpToolDefinition } from "../ai/mcp/connect.ts";
import { childMcpTools } from "../agent/subagent-mcp.ts";
import { type FixedMcpTool, type McpToolList, offeredToolsOf, withinWindowShare } from "../ai/mcp/mcp-tool-list.ts";
import { createMcpTools } from "./tools/mcp-tools.ts";
import type { McpServerConfig } from "../ai/mcp/server-config.ts";
import { createMcpSessions, type McpSessions } from "../ai/mcp/sessions.ts";
import type { ToolContext } from "./tools/tool-context.ts";
import {
  type ConversationMcpToolsRow,
  fixConversationMcpTools,
  getConversationMcpTools,
  getConversationMcpToolsRow,
  replaceConversationMcpTools,
} from "../db/conversation-mcp-tools.ts";
import { DEFAULT_WORKSPACE_ID } from "../db/workspaces.ts";
import { logFailure } from "../log/logger.ts";
import { approvedDefinitions, reviewMcpDefinitions } from "./mcp-drift.ts";
import { type McpChangeTracker, openMcpChangeTracker } from "./mcp-tool-changes.ts";
import { startToolCall } from "./running-tool-calls.ts";
import { workspaceMcpConfigs } from "./mcp-servers.ts";

export type ReplyMcp = {
  tools: Record<string, Tool>;
  list: FixedMcpTool[];
  /** Whether the list was read as stored (false: made by this reply). */
  stored: boolean;
  /** The list's revision: raised each time it is made again (the cache-break detector names that tools-changed). */
  revision: number;
  /** Before each step: the Workspace hints of what the list left out and of tools that changed since (each told once). */
  changes: McpChangeTracker;
  /** Whether a call waits for the person (the server's approval setting, the tool's annotation, the mode). */
  approvalFor: (toolName: string) => Promise<"user-approval" | undefined>;
  /** The person chose "Always allow this tool": later calls of this reply run too. */
  remember: (toolName: string) => void;
  /** Settles once a list this reply made is stored (a failure is logged): the reply's end waits for it. */
  listStored: Promise<void>;
  close: () => Promise<void>;
};

export const isFixedTool = (v: unknown): v is FixedMcpTool => {
  const t = v as FixedMcpTool | null;
  return (
    !!t &&
    typeof t.name === "string" &&
    typeof t.server === "string" &&
    typeof t.tool === "string" &&
    typeof t.description === "string" &&
    typeof t.inputSchema === "object"
  );
};

/**
 * Every enabled server's tools, servers in the order given, each server's tools in its own order, cut to the caps
 * (tools per server, schema depth and size, the share of a window of `contextWindow` tokens); a tool whose definition
 * changed since the person approved it is offered as approved (its calls are blocked until they review it).
 * `previous`: a list made before; a server that cannot be reached now keeps its tools from it.
 */
export async function discoverMcpTools(
  servers: readonly McpServerConfig[],
  sessions: McpSessions,
  workspaceId: string,
  contextWindow: number,
  previous: McpToolList = { tools: [], leftOut: [] },
): Promise<McpToolList> {
  const lists = await Promise.all(
    servers
      .filter((s) => s.enabled)
      .map(async (server): Promise<McpToolList> => {
        try {
          const definitions = await listMcpTools(await sessions.client(server));
          const drifted = await reviewMcpDefinitions(workspaceId, server.name, definitions, { complete: true });
          return offeredToolsOf(server.name, approvedDefinitions(definitions, drifted));
        } catch (error) {
          // Left out of this conversation's list; GET …/mcp-servers/:name shows the reason to the person.
          logFailure("an MCP server could not be reached for a conversation's tool list", { server: server.name })(
            error,
          );
          sessions.forget(server.name);
          const own = (t: { server: string; reason?: string }) =>
            t.server === server.name && t.reason !== "window-share";
          return { tools: previous.tools.filter(own), leftOut: previous.leftOut.filter(own) };
        }
      }),
  );
  return withinWindowShare(
    { tools: lists.flatMap((l) => l.tools), leftOut: lists.flatMap((l) => l.leftOut) },
    contextWindow,
  );
}

/** A stored row's list (read defensively). */
export const storedList = (row: { data: unknown[]; leftOut: unknown[] } | null | undefined): McpToolList => ({
  tools: (row?.data ?? []).filter(isFixedTool),
  leftOut: (row?.leftOut ?? []).filter(isLeftOutTool),
});

/** A subagent's list: the tools its agent allows (`allowed`, lib/agent/subagent-mcp.ts) of its root conversation's. */
export type InheritedMcp = { rootId: string; allowed: readonly string[] };

/**
 * A child's list, cut from its root's fixed list (and to the MCP share of the child's window); none while the root
 * has none fixed (then nothing is stored).
 */
async function inheritedList(inherit: InheritedMcp, contextWindow: number): Promise<McpToolList | null> {
  const root = await getConversationMcpTools({ conversationId: inherit.rootId });
  return root
    ? withinWindowShare({ tools: childMcpTools(root.filter(isFixedTool), inherit.allowed), leftOut: [] }, contextWindow)
    : null;
}

/**
 * The MCP tools of this reply. A conversation that has no fixed list gets one now: discovered when this is its first
 * reply, empty when it had replies before MCP existed (its cached prefix stays as it was); a subagent's (`inherit`)
 * is never discovered: it is what its agent allows of its root conversation's list, so that its calls go to the tools
 * the person's conversation was offered, under the same approval rules. A list a compression marked stale is made
 * again (the compression rewrote the cached prefix anyway). A list made here is cut to the MCP share of
 * `contextWindow` (the conversation's window), and what it left out is told at this reply's first step.
 */
type OpenReplyMcpOptions = {
  conversationId: string;
  workspaceId: string | undefined;
  contextWindow: number;
  history: readonly ChatMessage[];
  committed: Promise<void>;
  ctx: ToolContext;
  inherit?: InheritedMcp;
  /** The conversation's stored list as the caller just read it (undefined: read it here). */
  stored?: ConversationMcpToolsRow | null;
};

export async function openReplyMcp(options: OpenReplyMcpOptions): Promise<ReplyMcp> {
  const { conversationId, inherit, ctx } = options;
  const sessions = createMcpSessions();
  const workspace = options.workspaceId ?? DEFAULT_WORKSPACE_ID;
  const [configs, stored] = await Promise.all([
    workspaceMcpConfigs(workspace),
    options.stored === undefined ? getConversationMcpToolsRow({ conversationId }) : options.stored,
  ]);
  const { made, revision, listStored } = await listForReply(options, { configs, sessions, workspace, stored });
  const offered = made ?? storedList(stored);
  const list = offered.tools;
  const servers = new Map(configs.map((c) => [c.name, { ...c, alwaysAllow: [...c.alwaysAllow] }]));
  const toolChanged = definitionChecker(sessions, workspace);
  const startCall = (toolCallId: string) => startToolCall(conversationId, toolCallId);
  const tools = createMcpTools(list, { ...ctx, servers, sessions, approvalsAnswered: true, toolChanged, startCall });
  // What the list left out is told once: by the reply that made it, or the first after "Use the new tools now" made it.
  const tellLeftOut = offered.leftOut.length > 0 && (made !== undefined || stored?.leftOutTold === false);
  // A subagent's list is a cut of its root's: the person hears of changes in the root conversation, not in each child
  // (a child is told only what its own window left out).
  const changes = openMcpChangeTracker({
    conversationId,
    workspaceId: workspace,
    fixed: list,
    leftOut: offered.leftOut,
    tellLeftOut: tellLeftOut ? (made ? "made" : "stored") : undefined,
    watchChanges: !inherit,
    toldChanges: stored?.stale ? null : (stored?.toldChanges ?? null),
  });
  return {
    tools,
    list,
    stored: made === undefined,
    revision,
    changes,
    ...approvals({ list, servers, toolChanged, ctx }),
    listStored: listStored ?? Promise.resolve(),
    close: () => sessions.close(),
  };
}

/**
 * The reply's tool list when it makes one (`made`): anew when the stored one went stale, or the first time; none when
 * the stored list holds. A first list is stored once the turn's rows are.
 */
async function listForReply(
  { conversationId, contextWindow, history, committed, inherit }: OpenReplyMcpOptions,
  found: {
    configs: McpServerConfig[];
    sessions: ReturnType<typeof createMcpSessions>;
    workspace: string;
    stored: ConversationMcpToolsRow | null;
  },
): Promise<{ made?: McpToolList; revision: number; listStored?: Promise<void> }> {
  const { configs, sessions, workspace, stored } = found;
  if (stored?.stale) {
    const made = inherit
      ? ((await inheritedList(inherit, contextWindow)) ?? { tools: [], leftOut: [] })
      : await discoverMcpTools(configs, sessions, workspace, contextWindow, storedList(stored));
    const revision = await replaceConversationMcpTools({
      conversationId,
      data: made.tools,
      leftOut: made.leftOut,
      leftOutTold: true,
    });
    return { made, revision };
  }
  if (stored) return { revision: stored.revision ?? 0 };
  const inherited = inherit ? await inheritedList(inherit, contextWindow) : undefined;
  // A conversation that had replies before MCP existed keeps an empty list (its cached prefix stays as it was).
  const started = history.some((m) => m.role === "assistant");
  const made =
    inherited ??
    (inherit || started
      ? { tools: [], leftOut: [] }
      : await discoverMcpTools(configs, sessions, workspace, contextWindow));
  // Stored once the turn's rows are (the first model call does not wait for it); the reply lock keeps the next
  // reply of the conversation from starting before this one ends. A child whose root has no list stores none.
  if (!inherit || inherited) {
    const listStored = committed
      .then(() =>
        fixConversationMcpTools({ conversationId, data: made.tools, leftOut: made.leftOut, leftOutTold: true }),
      )
      .then(() => {})
      .catch(
        logFailure(
          inherit ? "storing a subagent's MCP tool list failed" : "storing a conversation's MCP tool list failed",
          { conversationId },
        ),
      );
    return { made, revision: 0, listStored };
  }
  return { made, revision: 0 };
}

/**
 * Whether a tool's definition changed since it was approved. Each server's tools are listed once a reply (the first
 * call that needs them); each call compares its tool's definition with the approved one, so a change accepted
 * meanwhile counts at once.
 */
function definitionChecker(sessions: ReturnType<typeof createMcpSessions>, workspace: string) {
  const listed = new Map<string, Promise<McpToolDefinition[]>>();
  return async (server: McpServerConfig, tool: string): Promise<boolean> => {
    let definitions = listed.get(server.name);
    if (!definitions) {
      definitions = sessions.client(server).then((client) => listMcpTools(client));
      listed.set(server.name, definitions);
      definitions.catch(() => listed.delete(server.name));
    }
    const current = (await definitions).filter((d) => d.name === tool);
    return (await reviewMcpDefinitions(workspace, server.name, current)).has(tool);
  };
}

/** Which calls wait for the person's answer, and an "always allow" remembered for the rest of the reply. */
function approvals({
  list,
  servers,
  toolChanged,
  ctx,
}: {
  list: McpToolList["tools"];
  servers: Map<string, McpServerConfig>;
  toolChanged: (server: McpServerConfig, tool: string) => Promise<boolean>;
  ctx: ToolContext;
}): Pick<ReplyMcp, "approvalFor" | "remember"> {
  const byName = new Map(list.map((t) => [t.name, t]));
  const approvalFor = async (toolName: string) => {
    const tool = byName.get(toolName);
    const server = tool && servers.get(tool.server);
    if (!tool || !server?.enabled) return undefined;
    // A changed tool is refused without asking (its call says why).
    if (
      await toolChanged(server, tool.tool).catch(
        logFailure("checking an MCP tool's definition before asking for approval failed", { server: server.name }),
      )
    )
      return undefined;
    const mode = (await ctx.mode?.()) ?? "build";
    const decision = mcpCallDecision({
      approval: server.approval,
      readOnly: tool.annotations.readOnlyHint === true,
      alwaysAllowed: server.alwaysAllow.includes(tool.tool),
      mode,
    });
    return decision === "ask" ? ("user-approval" as const) : undefined;
  };
  const remember = (toolName: string) => {
    const tool = byName.get(toolName);
    const server = tool && servers.get(tool.server);
    if (tool && server && !server.alwaysAllow.includes(tool.tool)) server.alwaysAllow.push(tool.tool);
  };
  return { approvalFor, remember };
}
