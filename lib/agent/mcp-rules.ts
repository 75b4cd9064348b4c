// MCP tools, the pure rules: how a server's tool is named for the model, what of a server's definition the model may
// read (neutralised, bounded), and whether a call runs, waits for the person or refuses.
import { neutralizeHintTags, neutralizeHintTagsDeep } from "./hints/neutralize-tags.ts";
import type { ConversationMode } from "./plan-mode.ts";

export { parseMcpToolName } from "../tool-name.ts";

/** A server's name: kebab-case, as a skill's; it becomes part of every tool name. */
export const MCP_SERVER_NAME_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MCP_SERVER_NAME_MAX_CHARS = 32;
export const MCP_APPROVALS = ["ask", "read-only-auto", "always"] as const;
export type McpApproval = (typeof MCP_APPROVALS)[number];
export const DEFAULT_MCP_APPROVAL: McpApproval = "read-only-auto";
export const DEFAULT_MCP_TIMEOUT_SECONDS = 60;
export const MAX_MCP_TIMEOUT_SECONDS = 3_600;
/** Servers per workspace (the operator's come on top). */
export const MAX_MCP_SERVERS = 20;
/** A tool description the model reads is cut to this many characters. */
export const MCP_DESCRIPTION_MAX_CHARS = 1_024;
/** Providers accept tool names of at most 64 characters from [a-zA-Z0-9_-]. */
export const TOOL_NAME_MAX_CHARS = 64;

/** MCP's tool annotations (hints the server gives; a server may lie, so only readOnlyHint relaxes anything). */
export type McpAnnotations = {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
};

/** `mcp__<server>__<tool>`, the tool's own name reduced to what providers accept, or null when it cannot fit. */
export function mcpToolName(server: string, tool: string): string | null {
  const safe = tool.replace(/[^A-Za-z0-9_-]/g, "_");
  const name = `mcp__${server}__${safe}`;
  return safe && name.length <= TOOL_NAME_MAX_CHARS ? name : null;
}

/** A server-supplied description as the model reads it: tags neutralised, cut to MCP_DESCRIPTION_MAX_CHARS. */
export function modelDescription(description: string | undefined, max = MCP_DESCRIPTION_MAX_CHARS): string {
  const safe = neutralizeHintTags((description ?? "").trim());
  if (safe.length <= max) return safe;
  const note = ` … [description cut: ${safe.length - max} more characters]`;
  return safe.slice(0, Math.max(0, max - note.length)) + note;
}

/** A server-supplied JSON schema as the model reads it: every string in it neutralised, an object schema always. */
export function modelSchema(schema: unknown): Record<string, unknown> {
  const safe = neutralizeHintTagsDeep(schema ?? {}) as Record<string, unknown>;
  const object = safe && typeof safe === "object" && !Array.isArray(safe) ? safe : {};
  return { ...object, type: "object", properties: (object.properties as object | undefined) ?? {} };
}

/** Only the annotations MCP defines, with their proper types. */
export function cleanAnnotations(value: unknown): McpAnnotations {
  if (!value || typeof value !== "object") return {};
  const v = value as Record<string, unknown>;
  const out: McpAnnotations = {};
  if (typeof v.title === "string") out.title = v.title.slice(0, 200);
  for (const key of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"] as const)
    if (typeof v[key] === "boolean") out[key] = v[key];
  return out;
}

export type McpCallDecision = "run" | "ask" | "plan-refusal";

/**
 * Whether a call runs, waits for the person, or (plan mode, a tool not annotated read-only) refuses without asking.
 * `ask`: every call waits; `read-only-auto`: read-only tools run, others wait; `always`: every call runs. A tool the
 * person chose "Always allow" for runs.
 */
export function mcpCallDecision({
  approval,
  readOnly,
  alwaysAllowed,
  mode,
}: {
  approval: McpApproval;
  readOnly: boolean;
  alwaysAllowed: boolean;
  mode: ConversationMode;
}): McpCallDecision {
  if (mode === "plan" && !readOnly) return "plan-refusal";
  if (approval === "always" || alwaysAllowed) return "run";
  if (approval === "read-only-auto" && readOnly) return "run";
  return "ask";
}
