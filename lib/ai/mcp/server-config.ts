// What the harness needs to reach one MCP server: a workspace's (HTTP, stored) or the operator's (stdio or HTTP, from
// the HINTLINE_MCP_CONFIG file). Only the operator's file can name a program to run.
import type { McpApproval } from "../../agent/mcp-rules.ts";

export type McpTransportSpec =
  | { type: "http"; url: string; headers: Record<string, string> }
  | { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string };

export type McpServerConfig = {
  name: string;
  source: "workspace" | "operator";
  transport: McpTransportSpec;
  approval: McpApproval;
  enabled: boolean;
  timeoutSeconds: number;
  /** Tools the person chose "Always allow this tool" for. */
  alwaysAllow: string[];
};
