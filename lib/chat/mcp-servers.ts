// A workspace's MCP servers: its own (HTTP, stored, edited over the API) and the operator's (HINTLINE_MCP_CONFIG,
// offered to every workspace, read-only). Header values are write-only: every view masks them.
import type { z } from "zod";
import {
  DEFAULT_MCP_APPROVAL,
  DEFAULT_MCP_TIMEOUT_SECONDS,
  MAX_MCP_SERVERS,
  type McpApproval,
  MCP_APPROVALS,
} from "../agent/mcp-rules.ts";
import { ApiError } from "../api/errors.ts";
import type { createMcpServerSchema, updateMcpServerSchema } from "../api/mcp-schemas.ts";
import { checkOutboundUrl, OutboundAddressError } from "../ai/outbound-address.ts";
import { describeMcpTools, type McpToolView } from "../ai/mcp/mcp-tool-list.ts";
import { probeMcpServer } from "../ai/mcp/connect.ts";
import { operatorMcpServers } from "../ai/mcp/operator-config.ts";
import type { McpServerConfig } from "../ai/mcp/server-config.ts";
import {
  createMcpServer,
  deleteMcpServer,
  getMcpServer,
  listMcpServers,
  type McpServerRow,
  updateMcpServer,
} from "../db/mcp-servers.ts";
import { deleteMcpFingerprints } from "../db/mcp-fingerprints.ts";
import { isUniqueViolation } from "../db/workspaces.ts";
import { bumpWorkspaceRevision } from "../db/workspace-views.ts";
import { acceptMcpToolChange, type McpToolDrift, reviewMcpDefinitions } from "./mcp-drift.ts";
import { stateSubscriptions } from "./state-subscriptions.ts";
import { logFailure } from "../log/logger.ts";
import { operatorNote, wordsFor } from "../operator-words.ts";
import { requireWorkspace } from "./workspaces.ts";

/** What a header value is shown as: never the value, nor its length. */
export const MASKED_HEADER_VALUE = "••••••••";

export type McpServerView = {
  name: string;
  source: "workspace" | "operator";
  transport: "http" | "stdio";
  url?: string;
  /** Header names with masked values. */
  headers: Record<string, string>;
  approval: McpApproval;
  enabled: boolean;
  timeoutSeconds: number;
  alwaysAllow: string[];
  createdAt?: string;
  updatedAt?: string;
};

/** A tool as GET …/mcp-servers/:name lists it; `change`: its definition differs from the approved one (blocked until accepted). */
export type McpServerToolView = McpToolView & { change?: Omit<McpToolDrift, "tool"> };

export type McpServerStatusView = McpServerView & {
  status: "connected" | "failed" | "disabled";
  error?: string;
  tools: McpServerToolView[];
};

const approvalOf = (value: string): McpApproval =>
  MCP_APPROVALS.includes(value as McpApproval) ? (value as McpApproval) : DEFAULT_MCP_APPROVAL;
const masked = (headers: Record<string, string>) =>
  Object.fromEntries(Object.keys(headers).map((name) => [name, MASKED_HEADER_VALUE]));

/** A stored server as the harness connects to it (header values included: never hand this to a response). */
export function configOfRow(row: McpServerRow): McpServerConfig {
  return {
    name: row.name,
    source: "workspace",
    transport: { type: "http", url: row.url, headers: row.headers },
    approval: approvalOf(row.approval),
    enabled: row.enabled,
    timeoutSeconds: row.timeoutSeconds ?? DEFAULT_MCP_TIMEOUT_SECONDS,
    alwaysAllow: row.alwaysAllow,
  };
}

function viewOfRow(row: McpServerRow): McpServerView {
  const config = configOfRow(row);
  return { ...viewOfConfig(config), createdAt: row.createdAt, updatedAt: row.updatedAt };
}

function viewOfConfig(config: McpServerConfig): McpServerView {
  const { transport } = config;
  return {
    name: config.name,
    source: config.source,
    transport: transport.type,
    ...(transport.type === "http" ? { url: transport.url } : {}),
    // The operator's program, arguments and environment are the operator's: not shown.
    headers: transport.type === "http" ? masked(transport.headers) : {},
    approval: config.approval,
    enabled: config.enabled,
    timeoutSeconds: config.timeoutSeconds,
    alwaysAllow: config.alwaysAllow,
  };
}

const missing = (workspaceId: string, name: string) =>
  new ApiError("not_found", `MCP server ${name} does not exist in workspace ${workspaceId}.`);
const operatorServer = (name: string) => operatorMcpServers().find((s) => s.name === name);
const readOnlyOperator = (name: string) =>
  new ApiError(
    "conflict",
    `MCP server ${name} comes from ${operatorNote("the operator's HINTLINE_MCP_CONFIG file", "whoever runs this Hintline server")} and cannot be changed over the API.`,
  );

/** Every server a conversation of the workspace may use, the workspace's own first (by name), then the operator's. */
export async function workspaceMcpConfigs(workspaceId: string): Promise<McpServerConfig[]> {
  const own = (await listMcpServers({ workspaceId })).map(configOfRow);
  const names = new Set(own.map((s) => s.name));
  return [...own, ...operatorMcpServers().filter((s) => !names.has(s.name))];
}

export async function workspaceMcpServers(workspaceId: string): Promise<McpServerView[]> {
  await requireWorkspace(workspaceId);
  const own = (await listMcpServers({ workspaceId })).map(viewOfRow);
  return [...own, ...operatorMcpServers().map(viewOfConfig)];
}

/**
 * A server added or edited is reached once in the background and its tools listed, so running conversations hear of
 * them (lib/chat/mcp-tool-changes.ts) without anyone opening the workspace page; one that fails says why there.
 */
function listInBackground(workspaceId: string, config: McpServerConfig): void {
  if (!config.enabled) return;
  void probeMcpServer(config)
    .then(async (probe) => {
      if (!probe.ok) return;
      await reviewMcpDefinitions(workspaceId, config.name, probe.tools, { complete: true });
      // Removed meanwhile: what was just recorded goes too (a new server of the same name starts afresh).
      if (!(await getMcpServer({ workspaceId, name: config.name })))
        await deleteMcpFingerprints({ workspaceId, server: config.name });
    })
    .catch(logFailure("listing a new MCP server's tools failed", { server: config.name }));
}

/**
 * One server with its connection status (connected now, with the reason when it fails) and its tools. `operator`: the
 * reader runs the server and reads a variable to set in the reason (lib/operator-words.ts).
 */
export async function readMcpServer(
  workspaceId: string,
  name: string,
  { operator }: { operator: boolean },
): Promise<McpServerStatusView> {
  await requireWorkspace(workspaceId);
  const row = await getMcpServer({ workspaceId, name });
  const config = row ? configOfRow(row) : operatorServer(name);
  if (!config) throw missing(workspaceId, name);
  const view = row ? viewOfRow(row) : viewOfConfig(config);
  if (!config.enabled) return { ...view, status: "disabled", tools: [] };
  const probe = await probeMcpServer(config);
  if (!probe.ok) return { ...view, status: "failed", error: wordsFor(probe.error, operator), tools: [] };
  // Whatever the server listed, the view answers: a failure on this side is a status with its reason (the log has more).
  const failed = (step: string) => (error: unknown) => {
    logFailure(`${step} failed`, { server: config.name, workspaceId })(error);
    return {
      ...view,
      status: "failed" as const,
      error: `The server answered, but ${step} failed (${probe.tools.length.toLocaleString("en-US")} tools listed); the server's log has the cause.`,
      tools: [],
    };
  };
  let drifted: Map<string, McpToolDrift>;
  try {
    drifted = await reviewMcpDefinitions(workspaceId, config.name, probe.tools, { complete: true });
  } catch (error) {
    return failed("recording its tools' definitions for review")(error);
  }
  try {
    const tools = describeMcpTools(config.name, probe.tools).map((tool): McpServerToolView => {
      const drift = drifted.get(tool.name);
      return drift ? { ...tool, change: { approved: drift.approved, current: drift.current } } : tool;
    });
    return { ...view, status: "connected", tools };
  } catch (error) {
    return failed("describing its tools")(error);
  }
}

/** The person reviewed a changed tool and accepts its new definition: its calls run again. */
export async function acceptMcpServerToolChange(
  workspaceId: string,
  name: string,
  tool: string,
): Promise<{ server: string; tool: string; definition: string }> {
  await requireWorkspace(workspaceId);
  if (!(await getMcpServer({ workspaceId, name })) && !operatorServer(name)) throw missing(workspaceId, name);
  return acceptMcpToolChange(workspaceId, name, tool);
}

/** A URL at an address Hintline may not reach (outbound-address.ts) is a 400, before anything is stored or sent there. */
export async function requireAllowedUrl(url: string): Promise<void> {
  try {
    await checkOutboundUrl(url);
  } catch (error) {
    if (error instanceof OutboundAddressError)
      throw new ApiError("bad_request", `Invalid url: ${error.message}.`, "url");
    throw error;
  }
}

export async function addMcpServer(
  workspaceId: string,
  input: z.infer<typeof createMcpServerSchema>,
): Promise<McpServerView> {
  await requireWorkspace(workspaceId);
  if (operatorServer(input.name))
    throw new ApiError(
      "conflict",
      `${operatorNote("The operator's HINTLINE_MCP_CONFIG file", "Whoever runs this Hintline server")} already has a server named ${input.name}; choose another name.`,
      "name",
    );
  await requireAllowedUrl(input.url);
  try {
    const row = await createMcpServer({ workspaceId, ...input, max: MAX_MCP_SERVERS });
    if (row === "limit")
      throw new ApiError(
        "conflict",
        `Workspace ${workspaceId} already has ${MAX_MCP_SERVERS} MCP servers, the limit; remove one first.`,
      );
    await bumpWorkspaceRevision({ workspaceId });
    listInBackground(workspaceId, configOfRow(row));
    return viewOfRow(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(
        "conflict",
        `Workspace ${workspaceId} already has an MCP server named ${input.name}; edit it instead.`,
        "name",
      );
    throw error;
  }
}

export async function editMcpServer(
  workspaceId: string,
  name: string,
  input: z.infer<typeof updateMcpServerSchema>,
): Promise<McpServerView> {
  await requireWorkspace(workspaceId);
  if (input.url !== undefined) await requireAllowedUrl(input.url);
  const updated = await updateMcpServer({ workspaceId, name, ...input });
  if (updated) {
    // Running conversations hear of a server switched on or off, or moved (lib/chat/mcp-tool-changes.ts); a change of
    // approval or timeout leaves its tools as they are, and nobody needs to reach it for that.
    if (input.url !== undefined || input.headers !== undefined || input.enabled !== undefined) {
      await bumpWorkspaceRevision({ workspaceId });
      // State sources subscribed on it connect again (or not at all) at their next read.
      await stateSubscriptions().endServer(workspaceId, name);
      listInBackground(workspaceId, configOfRow(updated));
    }
    return viewOfRow(updated);
  }
  throw operatorServer(name) ? readOnlyOperator(name) : missing(workspaceId, name);
}

export async function removeMcpServer(workspaceId: string, name: string): Promise<void> {
  await requireWorkspace(workspaceId);
  if (await deleteMcpServer({ workspaceId, name })) {
    await deleteMcpFingerprints({ workspaceId, server: name });
    await stateSubscriptions().endServer(workspaceId, name);
    return bumpWorkspaceRevision({ workspaceId });
  }
  throw operatorServer(name) ? readOnlyOperator(name) : missing(workspaceId, name);
}
