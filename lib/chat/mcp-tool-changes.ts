// MCP tools that change under a running conversation. Its list stays fixed (the provider's cached prefix holds it);
// before a step, when the workspace's revision moved, its list is compared with the workspace's tools as last listed
// (no server is contacted), and what differs is told once as a Workspace hint. The new list is taken at the next
// compression, or now when the person presses "Use the new tools now" (one cache break, named tools-changed). What
// the list left out (its caps) is told once too, at the first step after it was made.
import { parseDefinition } from "../agent/mcp-drift.ts";
import type { LeftOutMcpTool } from "../agent/mcp-tool-caps.ts";
import { type CatalogServer, changesKey, diffMcpTools, type McpToolChange } from "../agent/mcp-tool-changes.ts";
import { fixedToolsOf, type FixedMcpTool } from "../ai/mcp/mcp-tool-list.ts";
import { setConversationMcpToolsLeftOutTold, setConversationMcpToolsTold } from "../db/conversation-mcp-tools.ts";
import { listMcpCatalog } from "../db/mcp-fingerprints.ts";
import { workspaceMcpConfigs } from "./mcp-servers.ts";

/** The workspace's enabled servers with the tools each listed last (as offered: approved definitions). */
export async function workspaceMcpCatalog(workspaceId: string): Promise<CatalogServer[]> {
  const configs = (await workspaceMcpConfigs(workspaceId)).filter((c) => c.enabled);
  // Most workspaces have no server: then there is no catalog to read.
  const rows = configs.length ? await listMcpCatalog({ workspaceId }) : [];
  return configs.map((c) => {
    const own = rows.filter((r) => r.server === c.name);
    if (!own.some((r) => r.listed)) return { name: c.name, tools: own.length ? [] : null };
    const listed = own.filter((r) => r.listed).sort((a, b) => (a.tool < b.tool ? -1 : a.tool > b.tool ? 1 : 0));
    // Every tool the server offers could be in a list (which tools one keeps depends on its order and window).
    return {
      name: c.name,
      tools: fixedToolsOf(
        c.name,
        listed.map((r) => ({ name: r.tool, ...parseDefinition(r.definition) })),
        Number.POSITIVE_INFINITY,
      ),
    };
  });
}

/** What is news about the conversation's MCP tools for the agent: what its list left out, what changed since. */
export type McpNews = { leftOut?: readonly LeftOutMcpTool[]; changes?: readonly McpToolChange[]; changesKey?: string };

/**
 * One reply's check: before each step, what there is to tell the agent about its MCP tools. `tellLeftOut`: the tools
 * the list left out are told at the first step ("made": by the reply that made the list, which stored them as told;
 * "stored": made by "Use the new tools now", marked told once told). `watchChanges` false: only that (a subagent).
 */
export function openMcpChangeTracker({
  conversationId,
  workspaceId,
  fixed,
  leftOut = [],
  tellLeftOut,
  watchChanges = true,
  toldChanges,
}: {
  conversationId: string;
  workspaceId: string;
  fixed: readonly FixedMcpTool[];
  leftOut?: readonly LeftOutMcpTool[];
  tellLeftOut?: "made" | "stored";
  watchChanges?: boolean;
  toldChanges: string | null;
}) {
  let checked: string | undefined;
  let told = toldChanges;
  let leftOutDue = tellLeftOut !== undefined && leftOut.length > 0;
  return {
    /** `revision`: the workspace's revision as this step read it (nothing is read while it stays the same). */
    async beforeStep(revision: string | undefined): Promise<McpNews | undefined> {
      const news: McpNews = {};
      if (leftOutDue) {
        leftOutDue = false;
        news.leftOut = leftOut;
      }
      if (watchChanges && revision !== undefined && revision !== checked) {
        checked = revision;
        const changes = diffMcpTools(fixed, await workspaceMcpCatalog(workspaceId), leftOut);
        const key = changes.length ? changesKey(changes) : undefined;
        if (key !== undefined && key !== told) {
          told = key;
          Object.assign(news, { changes, changesKey: key });
        }
      }
      return news.leftOut || news.changes ? news : undefined;
    },
    /** The news was told (in the hints the step appended). */
    async told(news: McpNews): Promise<void> {
      if (news.leftOut && tellLeftOut === "stored") await setConversationMcpToolsLeftOutTold({ conversationId });
      if (news.changesKey) await setConversationMcpToolsTold({ conversationId, toldChanges: news.changesKey });
    },
  };
}

export type McpChangeTracker = ReturnType<typeof openMcpChangeTracker>;
