// A workspace's state sources (issue 48): the person's own runtime state, read before a reasoning step and told to
// the agent when it changed (lib/chat/state-reader.ts reads, lib/agent/state-sources.ts decides). Header values are
// write-only: sealed at rest like connection keys, opened only by the reader, shown as names with a mask.
import type { z } from "zod";
import {
  DEFAULT_REFRESH_SECONDS,
  DEFAULT_STATE_MAX_TOKENS,
  DEFAULT_STATE_TIMEOUT_SECONDS,
  MAX_STATE_SOURCES,
  type StateSourceKind,
} from "../agent/state-source-rules.ts";
import { ApiError } from "../api/errors.ts";
import type { createStateSourceSchema, updateStateSourceSchema } from "../api/state-source-schemas.ts";
import {
  createStateSource,
  deleteStateSource,
  getStateSource,
  listStateSources,
  type StateSourceRow,
  updateStateSource,
} from "../db/state-sources.ts";
import { isUniqueViolation } from "../db/workspaces.ts";
import { openSecret, sealSecret } from "./connection-secret.ts";
import { MASKED_HEADER_VALUE, requireAllowedUrl, workspaceMcpConfigs } from "./mcp-servers.ts";
import { stateSubscriptions } from "./state-subscriptions.ts";
import { requireWorkspace } from "./workspaces.ts";

export type StateSourceView = {
  name: string;
  kind: StateSourceKind;
  url?: string;
  /** Header names with masked values. */
  headers: Record<string, string>;
  server?: string;
  uri?: string;
  refreshSeconds: number;
  timeoutSeconds: number;
  maxTokens: number;
  enabled: boolean;
  createdAt: string;
  updatedAt: string;
};

/** A stored source as the reader reads it (header values opened: never hand this to a response). */
export type StateSourceConfig = Omit<StateSourceView, "headers" | "createdAt" | "updatedAt"> & {
  workspaceId: string;
  headers: Record<string, string>;
  /** Changes whenever the source is edited (a cached reading of an older version is not used). */
  version: string;
};

const kindOf = (row: StateSourceRow): StateSourceKind => (row.kind === "mcp-resource" ? "mcp-resource" : "http");

function viewOf(row: StateSourceRow): StateSourceView {
  const kind = kindOf(row);
  return {
    name: row.name,
    kind,
    ...(kind === "http" && row.url ? { url: row.url } : {}),
    headers: Object.fromEntries(Object.keys(row.headers).map((name) => [name, MASKED_HEADER_VALUE])),
    ...(kind === "mcp-resource" ? { server: row.server ?? "", uri: row.uri ?? "" } : {}),
    refreshSeconds: row.refreshSeconds,
    timeoutSeconds: row.timeoutSeconds,
    maxTokens: row.maxTokens,
    enabled: row.enabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function configOf(row: StateSourceRow): StateSourceConfig {
  const { headers: _masked, createdAt: _c, updatedAt, ...view } = viewOf(row);
  const headers: Record<string, string> = {};
  // A value this server's key cannot open (HINTLINE_SECRET changed) is left out: the source answers 401, in words.
  for (const [name, sealed] of Object.entries(row.headers)) {
    const value = openSecret(sealed);
    if (value !== undefined) headers[name] = value;
  }
  return { ...view, workspaceId: row.workspaceId, headers, version: updatedAt };
}

const sealed = (headers: Record<string, string> | undefined) =>
  headers && Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, sealSecret(value)]));

const missing = (workspaceId: string, name: string) =>
  new ApiError("not_found", `State source ${name} does not exist in workspace ${workspaceId}.`);

/** The workspace's enabled sources as the reader reads them (header values opened). */
export async function enabledStateSources(workspaceId: string): Promise<StateSourceConfig[]> {
  return (await listStateSources({ workspaceId })).filter((row) => row.enabled).map(configOf);
}

export async function workspaceStateSources(workspaceId: string): Promise<StateSourceView[]> {
  await requireWorkspace(workspaceId);
  return (await listStateSources({ workspaceId })).map(viewOf);
}

export async function readStateSourceRow(workspaceId: string, name: string): Promise<StateSourceRow> {
  await requireWorkspace(workspaceId);
  const row = await getStateSource({ workspaceId, name });
  if (!row) throw missing(workspaceId, name);
  return row;
}

export async function readStateSource(workspaceId: string, name: string): Promise<StateSourceView> {
  return viewOf(await readStateSourceRow(workspaceId, name));
}

async function requireMcpServer(workspaceId: string, server: string): Promise<void> {
  const names = (await workspaceMcpConfigs(workspaceId)).map((s) => s.name);
  if (!names.includes(server))
    throw new ApiError(
      "bad_request",
      `Invalid server: workspace ${workspaceId} has no MCP server named ${server}${names.length ? ` (it has ${names.join(", ")})` : ""}.`,
      "server",
    );
}

export async function addStateSource(
  workspaceId: string,
  input: z.infer<typeof createStateSourceSchema>,
): Promise<StateSourceView> {
  await requireWorkspace(workspaceId);
  if (input.url !== undefined) await requireAllowedUrl(input.url);
  if (input.server !== undefined) await requireMcpServer(workspaceId, input.server);
  try {
    const row = await createStateSource({
      workspaceId,
      ...input,
      headers: sealed(input.headers),
      refreshSeconds: input.refreshSeconds ?? DEFAULT_REFRESH_SECONDS,
      timeoutSeconds: input.timeoutSeconds ?? DEFAULT_STATE_TIMEOUT_SECONDS,
      maxTokens: input.maxTokens ?? DEFAULT_STATE_MAX_TOKENS,
      max: MAX_STATE_SOURCES,
    });
    if (row === "limit")
      throw new ApiError(
        "conflict",
        `Workspace ${workspaceId} already has ${MAX_STATE_SOURCES} state sources, the limit; remove one first.`,
      );
    return viewOf(row);
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError(
        "conflict",
        `Workspace ${workspaceId} already has a state source named ${input.name}; edit it instead.`,
        "name",
      );
    throw error;
  }
}

export async function editStateSource(
  workspaceId: string,
  name: string,
  input: z.infer<typeof updateStateSourceSchema>,
): Promise<StateSourceView> {
  const row = await readStateSourceRow(workspaceId, name);
  const kind = kindOf(row);
  const foreign = kind === "http" ? (["server", "uri"] as const) : (["url", "headers"] as const);
  for (const key of foreign)
    if (input[key] !== undefined)
      throw new ApiError(
        "bad_request",
        `Invalid ${key}: does not go with kind ${kind} (a source's kind stays; remove it and add it again).`,
        key,
      );
  if (input.url !== undefined) await requireAllowedUrl(input.url);
  if (input.server !== undefined) await requireMcpServer(workspaceId, input.server);
  const updated = await updateStateSource({ workspaceId, name, ...input, headers: sealed(input.headers) });
  if (!updated) throw missing(workspaceId, name);
  // Switched off or edited: its subscription (if this instance holds one) closes now; other instances' at their next
  // step in the workspace, or when unused.
  await stateSubscriptions().endSource(workspaceId, name);
  return viewOf(updated);
}

export async function removeStateSource(workspaceId: string, name: string): Promise<void> {
  await requireWorkspace(workspaceId);
  if (!(await deleteStateSource({ workspaceId, name }))) throw missing(workspaceId, name);
  await stateSubscriptions().endSource(workspaceId, name);
}
