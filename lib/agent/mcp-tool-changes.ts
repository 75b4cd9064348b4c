// What a running conversation is told when its workspace's MCP tools change. Its tool list stays as it was fixed (the
// definitions sit in the provider's cached prefix); the agent instead gets one Workspace hint saying which tools came,
// went or changed, and that they arrive at the next compression or when the person chooses to use them now. Pure:
// the conversation's list and the workspace's catalog in, changes and text out. The tools the list left out (its
// caps) are no news: they are told once on their own, with why.
import { hashText } from "./cache-breaks.ts";
import { bulletReminder } from "./hints/render-hint.ts";
import { oneLine } from "./hints/neutralize-tags.ts";
import {
  type LeftOutMcpTool,
  MCP_SCHEMA_MAX_DEPTH,
  MCP_TOOL_MAX_CHARS,
  MCP_TOOLS_PER_SERVER,
  MCP_TOOLS_WINDOW_SHARE,
  mcpToolsBudget,
} from "./mcp-tool-caps.ts";
import { mcpToolName } from "./mcp-rules.ts";
import { escapeWorkspaceText } from "./system-prompt/workspace.ts";

/** A tool as the model is offered it (lib/ai/mcp/mcp-tool-list.ts's FixedMcpTool has this shape). */
export type OfferedMcpTool = {
  name: string;
  server: string;
  description: string;
  inputSchema: unknown;
  annotations: unknown;
};

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

/**
 * From the conversation's list to the workspace's tools now: servers first (in catalog order), then tools. The tools
 * the list left out (`leftOut`) are not news, nor is a server all of whose tools it left out.
 */
export function diffMcpTools(
  fixed: readonly OfferedMcpTool[],
  catalog: readonly CatalogServer[],
  leftOut: readonly Pick<LeftOutMcpTool, "server" | "tool">[] = [],
): McpToolChange[] {
  const changes: McpToolChange[] = [];
  const fixedServers = new Set(fixed.map((t) => t.server));
  const knownServers = new Set([...fixedServers, ...leftOut.map((t) => t.server)]);
  const notOffered = new Set(leftOut.map((t) => mcpToolName(t.server, t.tool)));
  const enabled = new Map(catalog.map((s) => [s.name, s]));
  for (const server of catalog) {
    if (knownServers.has(server.name)) continue;
    // Never listed (just added, or never reached): nothing to offer yet; it is told once its tools are listed.
    if (!server.tools || server.tools.length === 0) continue;
    changes.push({
      kind: "server-added",
      server: server.name,
      tools: server.tools.map((t) => ({ name: t.name, description: t.description })),
    });
  }
  for (const name of fixedServers) if (!enabled.has(name)) changes.push({ kind: "server-removed", server: name });
  for (const server of catalog) {
    if (!knownServers.has(server.name) || !server.tools) continue;
    const before = new Map(fixed.filter((t) => t.server === server.name).map((t) => [t.name, t]));
    const now = new Set(server.tools.map((t) => t.name));
    for (const tool of server.tools) {
      if (notOffered.has(tool.name)) continue;
      const old = before.get(tool.name);
      if (!old) changes.push({ kind: "tool-added", name: tool.name, description: tool.description });
      else if (definitionOf(old) !== definitionOf(tool))
        changes.push({ kind: "tool-changed", name: tool.name, description: tool.description });
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
    case "server-added": {
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
    if (c.kind === "server-added" || c.kind === "server-removed")
      return `server ${text(c.server, 40)} ${c.kind.slice(7)}`;
    return `tool ${text(c.name, 60)} ${c.kind.slice(5)}`;
  });
  const shown = words.slice(0, 4).join(", ");
  return `MCP: ${words.length > 4 ? `${shown}, and ${words.length - 4} more` : shown}`;
}

const HEAD =
  'The MCP tools of this workspace changed since this conversation\'s tool list was fixed. Your tools stay as they are for now: the new and changed ones cannot be called yet; they arrive at the next compression, or sooner if the person chooses "Use the new tools now".';

/** The hint, at most HINT_MAX_CHARS; changes that do not fit are counted. */
export function renderMcpToolsHint(changes: readonly McpToolChange[]): {
  fields: Record<string, string>;
  text: string;
} {
  const more = (n: number) => `- … and ${n} more change${n === 1 ? "" : "s"}.`;
  return {
    fields: { changes: summarizeMcpChanges(changes), [MCP_CHANGES_FIELD]: String(changes.length) },
    text: bulletReminder(HEAD, changes.map(describeMcpChange), more),
  };
}

/** The changes as a key, to tell each set once (the same set found again is not news). */
export const changesKey = (changes: readonly McpToolChange[]): string => hashText(JSON.stringify(changes));

/** The field a Workspace hint about the tools a list left out carries (the chip's words: "many 872, deep 2"). */
export const MCP_LEFT_OUT_FIELD = "mcpLeftOut";
/** How many of a group's left-out tools the hint names. */
const LEFT_OUT_NAMES_SHOWN = 5;

const LEFT_OUT_HEAD =
  "Some tools of this workspace's MCP servers were left out of this conversation's tool list, so you cannot call them. If the person asks for one, tell them why; they can see the reasons in the workspace's MCP settings.";

/** Why a group of tools was left out, for one tool and for several. */
function leftOutWhy(reason: LeftOutMcpTool["reason"], window: number | undefined): [one: string, many: string] {
  switch (reason) {
    case "server-cap":
      return [
        `, over the ${MCP_TOOLS_PER_SERVER} tools one server may offer`,
        `, over the ${MCP_TOOLS_PER_SERVER} tools one server may offer`,
      ];
    case "window-share": {
      const share = `: the MCP tools may take at most ${Math.round(MCP_TOOLS_WINDOW_SHARE * 100)} % of this model's ${window ? `${window.toLocaleString("en-US")}-token window (${mcpToolsBudget(window).toLocaleString("en-US")} tokens)` : "context window"}`;
      return [share, share];
    }
    case "schema-depth":
      return [
        `: its input schema nests deeper than ${MCP_SCHEMA_MAX_DEPTH} levels`,
        `: their input schemas nest deeper than ${MCP_SCHEMA_MAX_DEPTH} levels`,
      ];
    case "definition-size":
      return [
        `: its definition is larger than the ${MCP_TOOL_MAX_CHARS / 1024} KiB one tool may take`,
        `: their definitions are larger than the ${MCP_TOOL_MAX_CHARS / 1024} KiB one tool may take`,
      ];
    case "name":
      return [
        ": its name cannot be offered (not unique, or too long as mcp__<server>__<tool>)",
        ": their names cannot be offered (not unique, or too long as mcp__<server>__<tool>)",
      ];
  }
}

/** The hint telling which tools the list left out, grouped by server and reason in the list's order, at most HINT_MAX_CHARS. */
export function renderMcpLeftOutHint(leftOut: readonly LeftOutMcpTool[]): {
  fields: Record<string, string>;
  text: string;
} {
  const groups = new Map<
    string,
    { server: string; reason: LeftOutMcpTool["reason"]; window?: number; tools: string[] }
  >();
  for (const t of leftOut) {
    const key = `${t.server}\u0000${t.reason}`;
    const group = groups.get(key) ?? { server: t.server, reason: t.reason, window: t.window, tools: [] };
    group.tools.push(t.tool);
    groups.set(key, group);
  }
  const lines = [...groups.values()].map(({ server, reason, window, tools }) => {
    const [one, many] = leftOutWhy(reason, window);
    if (tools.length === 1) return `- MCP server ${text(server, 64)}: ${text(tools[0]!, 64)} left out${one}.`;
    const names = tools.slice(0, LEFT_OUT_NAMES_SHOWN).map((t) => text(t, 64));
    const more = tools.length - names.length;
    return `- MCP server ${text(server, 64)}: ${tools.length} tools left out${many}: ${names.join(", ")}${more > 0 ? `, and ${more} more` : ""}.`;
  });
  const perServer = new Map<string, number>();
  for (const t of leftOut) perServer.set(t.server, (perServer.get(t.server) ?? 0) + 1);
  const counts = [...perServer].map(([server, n]) => `${text(server, 40)} ${n.toLocaleString("en-US")}`);
  return {
    fields: {
      [MCP_LEFT_OUT_FIELD]:
        counts.length > 4
          ? `${counts.slice(0, 4).join(", ")}, and ${counts.length - 4} more servers`
          : counts.join(", "),
    },
    text: bulletReminder(
      LEFT_OUT_HEAD,
      lines,
      (n) => `- … and ${n} more group${n === 1 ? "" : "s"} of tools left out.`,
    ),
  };
}
