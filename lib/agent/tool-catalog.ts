// The built-in tools by name with what each does to the conversation's state, as data: what an agent definition may
// name in its `tools` is checked against it without loading the tools themselves. lib/chat/tools/index.ts holds the
// tools in the same order (its test checks that both agree).
import type { ToolAccess } from "./plan-mode.ts";
import { envNumber } from "../env-number.ts";

export const TOOL_ACCESS = {
  TaskCreate: "write",
  TaskGet: "read",
  TaskList: "read",
  TaskUpdate: "write",
  PlanWrite: "plan",
  PlanRead: "read",
  MemoryWrite: "write",
  MemorySearch: "read",
  KnowledgeRead: "read",
  KnowledgeSearch: "read",
  KnowledgeList: "read",
  InstructionsRead: "read",
  SkillLoad: "read",
  AgentSpawn: "read",
  AgentSend: "read",
  AgentList: "read",
} as const satisfies Record<string, ToolAccess>;

export type BuiltInToolName = keyof typeof TOOL_ACCESS;
export const BUILT_IN_TOOL_NAMES = Object.keys(TOOL_ACCESS) as BuiltInToolName[];

export const isBuiltInTool = (name: string): name is BuiltInToolName => Object.hasOwn(TOOL_ACCESS, name);

/** The task tools: a child always may keep its own task list. */
export const TASK_TOOL_NAMES: readonly BuiltInToolName[] = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"];

/** A child's tools when its definition names none: every tool that only reads, and its own task tools. */
export const DEFAULT_CHILD_TOOLS: readonly BuiltInToolName[] = BUILT_IN_TOOL_NAMES.filter(
  (name) => TOOL_ACCESS[name] === "read" || TASK_TOOL_NAMES.includes(name),
);

/** How deep children may nest (HINTLINE_MAX_AGENT_DEPTH, default 2: a child may spawn, a grandchild may not). */
export const maxAgentDepth = () => Math.max(0, Math.floor(envNumber("HINTLINE_MAX_AGENT_DEPTH", 2)));

/**
 * Whether a conversation at `depth` (0: the person's, 1: its child, …) may spawn: below HINTLINE_MAX_AGENT_DEPTH. One
 * that may not (a grandchild by default) is offered no agent tools and its prompt no Subagents section. A conversation's
 * depth never changes, so neither does its tool list.
 */
export const spawnsAt = (depth: number) => depth < maxAgentDepth();

/** With HINTLINE_MAX_AGENT_DEPTH=0 subagents are off: no agent tools and no Subagents section in any prompt. */
export const subagentsEnabled = () => spawnsAt(0);
export const AGENT_TOOL_NAMES: readonly BuiltInToolName[] = ["AgentSpawn", "AgentSend", "AgentList"];
