// What a running conversation is told when its workspace's MCP tools change. Its tool list stays as it was fixed (the
// definitions sit in the provider's cached prefix); the agent instead gets one Workspace hint saying which tools came,
// went or changed, and that they arrive at the next compression or when the person chooses to use them now. Pure:
// the conversation's list and the workspace's catalog in, changes and text out.
import { hashText } from "./cache-breaks.ts";
import { bulletReminder } from "./hints/render-hint.ts";
import { oneLine } from "./hints/neutralize-tags.ts";
import { escapeWorkspaceText } from "./system-prompt/workspace.ts";

/** A tool as the model is offered it (lib/ai/mcp/mcp-tool-list.ts's FixedMcpTool has this shape). */
export type OfferedMcpTool = { name: string; server: string; description: string; inputSchema: unknown; annotations: unknown };

/** An enabled server as the workspace knows it now; `tools` null: never listed yet (added, not reached). */
export type CatalogServer = { name: string; tools: readonly OfferedMcpTool[] | null };

export type McpToolChange =
  | { kind: "server-added"; server: string; tools: ReadonlyArray<{ name: string; description: string }> }
  | { kind: "server-removed"; server: string }
  | { kind: "tool-added" | "tool-changed"; name: string; description: string }
  | { kind: "tool-removed"; name: string };

/** How many of a new server's tools the hint names. */
const SERVER_NAMES_SHOWN = 8;

/** The field a Workspace hint about MCP tools carries: the chip offers "Use the new tools now" for it. */
export const MCP_CHANGES_FIELD = "mcpTools";

/** A value with every object's keys in order: a schema read back from storage may list its keys in another order. */
function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (!value || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((k) => [k, sortedKeys((value as Record<string, unknown>)[k])]),
  );
}

const definitionOf = (t: OfferedMcpTool) => JSON.stringify(sortedKeys([t.description, t.inputSchema, t.annotations]));

/** From the conversation's list to the workspace's tools now: servers first (in catalog order), then tools. */
export function diffMcpTools(fixed: readonly OfferedMcpTool[], catalog: readonly CatalogServer[]): McpToolChange[] {
  const changes: McpToolChange[] = [];
  const fixedServers = new Set(fixed.map((t) => t.server));
  const enabled = new Map(catalog.map((s) => [s.name, s]));
  for (const server of catalog) {
    if (fixedServers.has(server.name)) continue;
    // Never listed (just added, or never reached): nothing to offer yet; it is told once its tools are listed.
    if (!server.tools || server.tools.length === 0) continue;
    changes.push({ kind: "server-added", server: server.name, tools: server.tools.map((t) => ({ name: t.name, description: t.description })) });
  }
  for (const name of fixedServers) if (!enabled.has(name)) changes.push({ kind: "server-removed", server: name });
  for (const server of catalog) {
    if (!fixedServers.has(server.name) || !server.tools) continue;
    const before = new Map(fixed.filter((t) => t.server === server.name).map((t) => [t.name, t]));
    const now = new Set(server.tools.map((t) => t.name));
    for (const tool of server.tools) {
      const old = before.get(tool.name);
      if (!old) changes.push({ kind: "tool-added", name: tool.name, description: tool.description });
      else if (definitionOf(old) !== definitionOf(tool)) changes.push({ kind: "tool-changed", name: tool.name, description: tool.description });
    }
    for (const name of before.keys()) if (!now.has(name)) changes.push({ kind: "tool-removed", name });
  }
  return changes;
}

const text = (value: string, max: number) => {
  const safe = escapeWorkspaceText(oneLine(value));
  return safe.length <= max ? safe : `${safe.slice(0, max - 1)}…`;
};

function describeMcpChange(change: McpToolChange): string {
  switch (change.kind) {
    case "server-added":
    {
      // Names only (the descriptions come with the tools): a hint stays small in any window.
      const names = change.tools.slice(0, SERVER_NAMES_SHOWN).map((t) => text(t.name, 128));
      const more = change.tools.length - names.length;
      return `- MCP server ${text(change.server, 64)} added (or reachable again), with ${change.tools.length} tool${change.tools.length === 1 ? "" : "s"}: ${names.join(", ")}${more > 0 ? `, and ${more} more` : ""}.`;
    }
    case "server-removed":
      return `- MCP server ${text(change.server, 64)} removed or switched off: calls of its tools will fail.`;
    case "tool-added":
      return `- Tool added: ${text(change.name, 128)}: ${text(change.description, 160)}`;
    case "tool-changed":
      return `- Tool changed: ${text(change.name, 128)} (its description or arguments are new): ${text(change.description, 160)}`;
    case "tool-removed":
      return `- Tool removed: ${text(change.name, 128)}: calls of it will fail.`;
  }
}

/** A few words for the chip ("MCP: server github added, tool mcp__fs__read removed"). */
export function summarizeMcpChanges(changes: readonly McpToolChange[]): string {
  const words = changes.map((c) => {
    if (c.kind === "server-added" || c.kind === "server-removed") return `server ${text(c.server, 40)} ${c.kind.slice(7)}`;
    return `tool ${text(c.name, 60)} ${c.kind.slice(5)}`;
  });
  const shown = words.slice(0, 4).join(", ");
  return `MCP: ${words.length > 4 ? `${shown}, and ${words.length - 4} more` : shown}`;
}

const HEAD =
  'The MCP tools of this workspace changed since this conversation\'s tool list was fixed. Your tools stay as they are for now: the new and changed ones cannot be called yet; they arrive at the next compression, or sooner if the person chooses "Use the new tools now".';

/** The hint, at most HINT_MAX_CHARS; changes that do not fit are counted. */
export function renderMcpToolsHint(changes: readonly McpToolChange[]): { fields: Record<string, string>; text: string } {
  const more = (n: number) => `- … and ${n} more change${n === 1 ? "" : "s"}.`;
  return {
    fields: { changes: summarizeMcpChanges(changes), [MCP_CHANGES_FIELD]: String(changes.length) },
    text: bulletReminder(HEAD, changes.map(describeMcpChange), more),
  };
}

/** The changes as a key, to tell each set once (the same set found again is not news). */
export const changesKey = (changes: readonly McpToolChange[]): string => hashText(JSON.stringify(changes));
