// MCP tools that change under a running conversation. Its list stays fixed (the provider's cached prefix holds it);
// before a step, when the workspace's revision moved, its list is compared with the workspace's tools as last listed
// (no server is contacted), and what differs is told once as a Workspace hint. The new list is taken at the next
// compression, or now when the person presses "Use the new tools now" (one cache break, named tools-changed). What
// the list left out (its caps) is told once too, at the first step after it was made.
import { generateId } from "ai";
import { parseDefinition } from "../agent/mcp-drift.ts";
import type { LeftOutMcpTool } from "../agent/mcp-tool-caps.ts";
import { type CatalogServer, changesKey, diffMcpTools, renderMcpLeftOutHint, renderMcpToolsHint } from "../agent/mcp-tool-changes.ts";
import { WORKSPACE_HINT_SOURCE } from "../agent/workspace-changes.ts";
import { fixedToolsOf, type FixedMcpTool } from "../ai/mcp/mcp-tool-list.ts";
import type { HintData } from "../chat-message.ts";
import { now as clockNow } from "../clock.ts";
import { setConversationMcpToolsLeftOutTold, setConversationMcpToolsTold } from "../db/conversation-mcp-tools.ts";
import { listMcpCatalog } from "../db/mcp-fingerprints.ts";
import { workspaceMcpConfigs } from "./mcp-servers.ts";
import type { WorkspaceHintChunk } from "./workspace-view.ts";

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
    return { name: c.name, tools: fixedToolsOf(c.name, listed.map((r) => ({ name: r.tool, ...parseDefinition(r.definition) })), Number.POSITIVE_INFINITY) };
  });
}

const hintChunk = ({ fields, text }: { fields: Record<string, string>; text: string }, at: Date): WorkspaceHintChunk => {
  const data: HintData = { source: WORKSPACE_HINT_SOURCE, fields, text, createdAt: at.toISOString() };
  return { type: "data-hint", id: generateId(), data };
};

/**
 * One reply's check: before each step, the Workspace hints when there is news for the agent. `tellLeftOut`: the
 * tools the list left out are told at the first step ("made": by the reply that made the list, which stored them as
 * told; "stored": made by "Use the new tools now", marked told here). `watchChanges` false: only that (a subagent).
 */
export function openMcpChangeTracker({
  conversationId,
  workspaceId,
  fixed,
  leftOut = [],
  tellLeftOut,
  watchChanges = true,
  toldChanges,
  now = clockNow,
}: {
  conversationId: string;
  workspaceId: string;
  fixed: readonly FixedMcpTool[];
  leftOut?: readonly LeftOutMcpTool[];
  tellLeftOut?: "made" | "stored";
  watchChanges?: boolean;
  toldChanges: string | null;
  now?: () => Date;
}) {
  let checked: string | undefined;
  let told = toldChanges;
  let leftOutDue = tellLeftOut !== undefined && leftOut.length > 0;
  return {
    /** `revision`: the workspace's revision as this step read it (nothing is read while it stays the same). */
    async beforeStep(revision: string | undefined): Promise<WorkspaceHintChunk[]> {
      const hints: WorkspaceHintChunk[] = [];
      if (leftOutDue) {
        leftOutDue = false;
        if (tellLeftOut === "stored") await setConversationMcpToolsLeftOutTold({ conversationId });
        hints.push(hintChunk(renderMcpLeftOutHint(leftOut), now()));
      }
      if (!watchChanges || revision === undefined || revision === checked) return hints;
      checked = revision;
      const changes = diffMcpTools(fixed, await workspaceMcpCatalog(workspaceId), leftOut);
      if (changes.length === 0) return hints;
      const key = changesKey(changes);
      if (key === told) return hints;
      told = key;
      await setConversationMcpToolsTold({ conversationId, toldChanges: key });
      return [...hints, hintChunk(renderMcpToolsHint(changes), now())];
    },
  };
}

export type McpChangeTracker = ReturnType<typeof openMcpChangeTracker>;
