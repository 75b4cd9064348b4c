// The operator's MCP servers: the file HINTLINE_MCP_CONFIG names, in the `{ "mcpServers": { … } }` shape other MCP
// clients read (Claude Desktop, Cursor). A `command` entry runs that program over stdio; a `url` entry is an HTTP
// server. They are offered to every workspace, and nothing over HTTP can add, change or remove them. A program's
// environment is its `env` plus the few variables the AI SDK passes on (PATH, HOME, …): never this server's keys.
import fs from "node:fs";
import path from "node:path";
import {
  DEFAULT_MCP_APPROVAL,
  DEFAULT_MCP_TIMEOUT_SECONDS,
  MAX_MCP_TIMEOUT_SECONDS,
  MCP_APPROVALS,
  MCP_SERVER_NAME_MAX_CHARS,
  MCP_SERVER_NAME_PATTERN,
  type McpApproval,
} from "../../agent/mcp-rules.ts";
import type { McpServerConfig } from "./server-config.ts";

export type OperatorConfig = { servers: McpServerConfig[]; skipped: { name: string; reason: string }[] };

const isStringList = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === "string");
const isStringRecord = (v: unknown): v is Record<string, string> =>
  !!v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((s) => typeof s === "string");

/** The servers of a config file's text (`baseDir` resolves a relative `cwd`); entries that do not fit are skipped with the reason. */
export function parseOperatorConfig(text: string, baseDir = process.cwd()): OperatorConfig {
  const out: OperatorConfig = { servers: [], skipped: [] };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    out.skipped.push({ name: "(file)", reason: "is not valid JSON" });
    return out;
  }
  const entries = (json as { mcpServers?: unknown } | null)?.mcpServers;
  if (!entries || typeof entries !== "object" || Array.isArray(entries)) {
    out.skipped.push({ name: "(file)", reason: 'has no "mcpServers" object' });
    return out;
  }
  for (const [name, raw] of Object.entries(entries as Record<string, unknown>)) {
    const skip = (reason: string) => out.skipped.push({ name, reason });
    if (!MCP_SERVER_NAME_PATTERN.test(name) || name.length > MCP_SERVER_NAME_MAX_CHARS) {
      skip(`the name must be kebab-case, at most ${MCP_SERVER_NAME_MAX_CHARS} characters`);
      continue;
    }
    const entry = (raw ?? {}) as Record<string, unknown>;
    const approval = entry.approval ?? DEFAULT_MCP_APPROVAL;
    if (!MCP_APPROVALS.includes(approval as McpApproval)) {
      skip(`approval must be one of ${MCP_APPROVALS.join(", ")}`);
      continue;
    }
    const timeout = entry.timeoutSeconds ?? DEFAULT_MCP_TIMEOUT_SECONDS;
    if (typeof timeout !== "number" || !Number.isInteger(timeout) || timeout < 1 || timeout > MAX_MCP_TIMEOUT_SECONDS) {
      skip(`timeoutSeconds must be a whole number from 1 to ${MAX_MCP_TIMEOUT_SECONDS}`);
      continue;
    }
    const common = {
      name,
      source: "operator" as const,
      approval: approval as McpApproval,
      enabled: entry.disabled !== true,
      timeoutSeconds: timeout,
      alwaysAllow: [],
    };
    if (typeof entry.command === "string" && entry.command) {
      if (entry.args !== undefined && !isStringList(entry.args)) {
        skip("args must be a list of strings");
        continue;
      }
      if (entry.env !== undefined && !isStringRecord(entry.env)) {
        skip("env must map names to strings");
        continue;
      }
      const cwd = typeof entry.cwd === "string" ? path.resolve(baseDir, entry.cwd) : undefined;
      out.servers.push({
        ...common,
        transport: { type: "stdio", command: entry.command, args: entry.args ?? [], env: entry.env ?? {}, cwd },
      });
    } else if (typeof entry.url === "string" && /^https?:\/\//i.test(entry.url)) {
      if (entry.headers !== undefined && !isStringRecord(entry.headers)) {
        skip("headers must map names to strings");
        continue;
      }
      out.servers.push({ ...common, transport: { type: "http", url: entry.url, headers: entry.headers ?? {} } });
    } else {
      skip('needs a "command" (stdio) or an http(s) "url"');
    }
  }
  return out;
}

let loaded: { file: string; config: OperatorConfig } | undefined;

/** The operator's servers (none without HINTLINE_MCP_CONFIG), read once per process; a broken file is reported and skipped. */
export function operatorMcpServers(): McpServerConfig[] {
  const file = process.env.HINTLINE_MCP_CONFIG ?? "";
  if (!file) return [];
  if (loaded?.file !== file) {
    let config: OperatorConfig;
    // The file is the operator's, named at run time: without the ignore comments Turbopack traces the whole project
    // into the build as what this read might need, and says so in two 40-line warnings at every build.
    try {
      const text = fs.readFileSync(/*turbopackIgnore: true*/ file, "utf8");
      config = parseOperatorConfig(text, path.dirname(path.resolve(/*turbopackIgnore: true*/ file)));
    } catch (error) {
      config = { servers: [], skipped: [{ name: "(file)", reason: `cannot be read: ${(error as Error).message}` }] };
    }
    for (const { name, reason } of config.skipped)
      console.warn(`HINTLINE_MCP_CONFIG: server ${name} left out: ${reason}`);
    loaded = { file, config };
  }
  return loaded.config.servers;
}
