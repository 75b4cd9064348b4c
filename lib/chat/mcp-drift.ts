// MCP tool drift: each tool's definition is fingerprinted the first time a workspace sees it; a server that later sends
// a different description, schema or annotations gets that tool blocked until the person reviews the change (shown as
// before/after in /w/<id>) and accepts it. A new conversation is offered the approved definition, never the unreviewed
// one, so a changed description cannot reach the model before the person has read it.
import { createHash } from "node:crypto";
import { canonicalDefinition, driftOf, MCP_DEFINITION_MAX_CHARS, parseDefinition } from "../agent/mcp-drift.ts";
import { ApiError } from "../api/errors.ts";
import type { McpToolDefinition } from "../ai/mcp/connect.ts";
import {
  acceptPendingDefinition,
  type FirstSeenTool,
  listMcpFingerprints,
  type PendingDefinition,
  recordFirstSeen,
  setListedTools,
  setPendingDefinitions,
} from "../db/mcp-fingerprints.ts";
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";

/** A tool whose definition changed since the person approved it: both texts, for the review. */
export type McpToolDrift = { tool: string; approved: string; current: string };

const hashOf = (text: string) => createHash("sha256").update(text).digest("hex");
const stored = (text: string) =>
  text.length > MCP_DEFINITION_MAX_CHARS ? `${text.slice(0, MCP_DEFINITION_MAX_CHARS)}\n… (cut)` : text;

/**
 * Compares the definitions a server lists now with the approved ones: a tool seen for the first time is approved as
 * it is; a changed one waits for review (and a change the server took back stops waiting). Returns the changed tools.
 * `complete`: the definitions are the server's whole listing, so a tool not among them is gone; a tool new or gone
 * raises the workspace's revision, which tells running conversations (lib/chat/mcp-tool-changes.ts).
 */
export async function reviewMcpDefinitions(
  workspaceId: string,
  server: string,
  definitions: readonly McpToolDefinition[],
  { complete = false }: { complete?: boolean } = {},
): Promise<Map<string, McpToolDrift>> {
  const rows = new Map((await listMcpFingerprints({ workspaceId, server })).map((r) => [r.tool, r]));
  const drifted = new Map<string, McpToolDrift>();
  const named = definitions.filter((d) => typeof d?.name === "string");
  const fresh: FirstSeenTool[] = [];
  const pending: PendingDefinition[] = [];
  const seen = new Set<string>();
  for (const d of named) {
    // Each name once (a server listing a name twice is judged by its first definition).
    if (seen.has(d.name)) continue;
    seen.add(d.name);
    const text = canonicalDefinition(d);
    const hash = hashOf(text);
    const row = rows.get(d.name);
    const drift = driftOf(row?.hash, hash, row?.definition);
    if (drift.state === "new") fresh.push({ tool: d.name, hash, definition: stored(text) });
    else if (drift.state === "same") {
      if (row?.pendingHash) pending.push({ tool: d.name, hash: null, definition: null });
    } else {
      drifted.set(d.name, { tool: d.name, approved: drift.approved, current: stored(text) });
      if (row?.pendingHash !== hash) pending.push({ tool: d.name, hash, definition: stored(text) });
    }
  }
  await recordFirstSeen({ workspaceId, server, tools: fresh });
  await setPendingDefinitions({ workspaceId, server, changes: pending });
  if (complete) {
    const flipped = await setListedTools({ workspaceId, server, tools: named.map((d) => d.name) });
    if (flipped || fresh.length) await bumpWorkspaceRevision({ workspaceId });
  }
  return drifted;
}

/** The definitions a new conversation is offered: a changed tool as the person approved it. */
export function approvedDefinitions(
  definitions: readonly McpToolDefinition[],
  drifted: ReadonlyMap<string, McpToolDrift>,
): McpToolDefinition[] {
  return definitions.map((d) => {
    const drift = drifted.get(d.name);
    return drift ? { name: d.name, ...parseDefinition(drift.approved) } : d;
  });
}

/** POST …/mcp-servers/:name/tools/:tool/accept: the waiting change becomes the approved definition. */
export async function acceptMcpToolChange(
  workspaceId: string,
  server: string,
  tool: string,
): Promise<{ server: string; tool: string; definition: string }> {
  const row = await acceptPendingDefinition({ workspaceId, server, tool });
  if (!row) {
    throw new ApiError(
      "not_found",
      `Tool ${tool} of MCP server ${server} has no changed definition waiting for review in workspace ${workspaceId}.`,
      "tool",
    );
  }
  await bumpWorkspaceRevision({ workspaceId });
  return { server, tool, definition: row.definition };
}
