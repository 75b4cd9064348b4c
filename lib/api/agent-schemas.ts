// Request schemas of the agent definitions API (`/api/workspaces/:id/agents`).
import { z } from "zod";
import { hasLineBreak } from "../agent/hints/neutralize-tags.ts";
import {
  MAX_AGENT_DESCRIPTION_CHARS,
  MAX_AGENT_ID_CHARS,
  MAX_AGENT_INSTRUCTIONS_CHARS,
  MAX_AGENT_TOOLS,
} from "../agent/workspace-limits.ts";
import { SKILL_NAME_PATTERN } from "../agent/workspace-text.ts";
import { isMcpToolEntry } from "../agent/subagent-mcp.ts";
import { BUILT_IN_TOOL_NAMES, isBuiltInTool } from "../agent/tool-catalog.ts";

const count = (n: number) => n.toLocaleString("en-US");
const overLimit = (what: string, max: number) => (issue: { input: unknown }) =>
  `is ${count(String(issue.input).length)} characters, over the ${what} limit of ${count(max)}`;

export const agentIdSchema = z
  .string({ message: "must be a string" })
  .refine((v) => v.length <= MAX_AGENT_ID_CHARS, { error: overLimit("agent id", MAX_AGENT_ID_CHARS) })
  .refine((v) => SKILL_NAME_PATTERN.test(v), {
    message: 'must be kebab-case: lower-case letters and digits joined by single hyphens, like "code-reviewer"',
  });

const description = z
  .string({ message: "must be a string (one line)" })
  .trim()
  .min(1, { message: "must not be empty" })
  .refine((v) => !hasLineBreak(v), {
    message: "must be one line (no line breaks, NEL and line or paragraph separators included)",
  })
  .refine((v) => v.length <= MAX_AGENT_DESCRIPTION_CHARS, {
    error: overLimit("description", MAX_AGENT_DESCRIPTION_CHARS),
  });

const instructions = z
  .string({ message: "must be a string (markdown)" })
  .refine((v) => v.trim().length > 0, { message: "must not be empty" })
  .refine((v) => v.length <= MAX_AGENT_INSTRUCTIONS_CHARS, {
    error: overLimit("instructions", MAX_AGENT_INSTRUCTIONS_CHARS),
  });

/**
 * Tool names from the built-in list and MCP entries (lib/agent/subagent-mcp.ts), each once; null (on PATCH): back to
 * the default tools.
 */
const tools = z
  .array(z.string({ message: "must be a tool name (a string)" }), { message: "must be a list of tool names" })
  .max(MAX_AGENT_TOOLS, { message: `must name at most ${MAX_AGENT_TOOLS} tools` })
  .superRefine((names, ctx) => {
    const unknown = names.filter((n) => !isBuiltInTool(n) && !isMcpToolEntry(n));
    if (unknown.length) {
      const shown = unknown
        .slice(0, 5)
        .map((n) => JSON.stringify(n.slice(0, 60)))
        .join(", ");
      ctx.addIssue({
        code: "custom",
        message: `names unknown tool(s) ${shown}; the tools are: ${BUILT_IN_TOOL_NAMES.join(", ")}; MCP tools are named mcp__<server>__<tool>, mcp__<server>__* (a server's tools), mcp__* (every MCP tool) or mcp:read-only (those annotated read-only)`,
      });
      return;
    }
    const twice = names.find((n, i) => names.indexOf(n) !== i);
    if (twice) ctx.addIssue({ code: "custom", message: `names ${twice} twice` });
  });

/** A provider/model id (GET /api/models lists them), checked like PATCH /api/conversations/:id { model }. */
const model = z
  .string({ message: "must be a string (a model id)" })
  .trim()
  .min(1, { message: "must not be empty" })
  .max(200)
  .regex(/^[\x21-\x7e]+$/, { message: "must be a model id without spaces, e.g. anthropic/claude-sonnet-4-5" });

/** The model calls one reply of the agent's child may make (HINTLINE_MAX_STEPS when absent). */
const maxSteps = z
  .number({ message: "must be a whole number of model calls, 1 to 100" })
  .int({ message: "must be a whole number of model calls, 1 to 100" })
  .min(1, { message: "must be at least 1 model call" })
  .max(100, { message: "must be at most 100 model calls" });

export const createAgentSchema = z
  .object({
    id: agentIdSchema,
    description,
    instructions,
    tools: tools.optional(),
    model: model.optional(),
    maxSteps: maxSteps.optional(),
  })
  .strict();

export const updateAgentSchema = z
  .object({
    description: description.optional(),
    instructions: instructions.optional(),
    tools: tools.nullable().optional(),
    model: model.nullable().optional(),
    maxSteps: maxSteps.nullable().optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((field) => field !== undefined), {
    message: "send description, instructions, tools, model and/or maxSteps",
  });

export type CreateAgentInput = z.infer<typeof createAgentSchema>;
export type UpdateAgentInput = z.infer<typeof updateAgentSchema>;
