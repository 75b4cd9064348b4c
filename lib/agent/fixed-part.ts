// The fixed part of every model call — the system prompt and the built-in tools' definitions — held within
// FIXED_SHARE of the context window by design, so that a 4,096-token local model still has room for the
// conversation (issue 46). The prompt's budgeted sections (budget.ts) get what the unbudgeted sections and the tools
// leave of that share; the tools come in one of two styles, and on a small window a conversation is offered only the
// tools its workspace gives it something to use with. Pure: the same inputs choose the same tools, so the prefix
// stays byte-identical from call to call.
import { promptBudget } from "./system-prompt/budget.ts";
import type { WorkspaceSnapshot } from "./system-prompt/types.ts";
import { AGENT_TOOL_NAMES, type BuiltInToolName } from "./tool-catalog.ts";
import { GENERAL_PURPOSE_AGENT_ID } from "./subagents.ts";

/** The most of the window the system prompt and the built-in tools' definitions take together. */
export const FIXED_SHARE = 0.35;
/**
 * Every tool (even those the workspace gives nothing to work on yet) is offered while the tools and the prompt's
 * unbudgeted sections take at most this share: the rest of FIXED_SHARE is left to the workspace's sections.
 */
export const ALL_TOOLS_SHARE = 0.25;

/**
 * How the tools and the prompt's guidance are written: `full` (every description and parameter description, the
 * guidance whole) or `compact` (one line per tool and the parameters' names and types, the guidance in brief; the
 * names, and the results the model reads, are the same).
 */
export type ToolStyle = "full" | "compact";

/**
 * One way of building the fixed part; they are tried in FIXED_PART_TRIES's order until one fits. `unused`: leave out
 * the tools the workspace gives nothing to work on; `agents`: the agent tools (and the Subagents section) with any
 * agent, only with agents of the workspace's own (not for the built-in general-purpose one alone), or none.
 */
export type FixedPartTry = { style: ToolStyle; unused: "keep" | "leave-out"; agents: "any" | "own" | "none" };

export const FIXED_PART_TRIES: readonly FixedPartTry[] = [
  { style: "full", unused: "keep", agents: "any" },
  // Every tool in brief before any is left out: a tool left out stays out until the workspace is frozen again (the
  // next compression), even when what it works on is added meanwhile.
  { style: "compact", unused: "keep", agents: "any" },
  { style: "compact", unused: "leave-out", agents: "any" },
  { style: "compact", unused: "leave-out", agents: "own" },
  // The last resort: the Subagents section's guidance alone is a few hundred tokens.
  { style: "compact", unused: "leave-out", agents: "none" },
];

export const KNOWLEDGE_TOOL_NAMES: readonly BuiltInToolName[] = ["KnowledgeRead", "KnowledgeSearch", "KnowledgeList"];

/** What a conversation's frozen workspace gives the tools that work on it. */
export type WorkspaceUses = { knowledge: boolean; skills: boolean; instructions: boolean; ownAgents: boolean };

export function workspaceUses(snapshot: WorkspaceSnapshot | undefined): WorkspaceUses {
  return {
    knowledge: Boolean(snapshot && (snapshot.knowledgeIndex.trim() || snapshot.files.length > 0)),
    skills: (snapshot?.skills.length ?? 0) > 0,
    instructions: Boolean(snapshot?.instructions.trim()),
    ownAgents: (snapshot?.agents ?? []).some((agent) => agent.id !== GENERAL_PURPOSE_AGENT_ID),
  };
}

/**
 * The tools of `offered` (in their order) a try keeps: without the tools the workspace gives nothing to work on (the
 * knowledge tools without knowledge, SkillLoad without skills, InstructionsRead without workspace instructions) when
 * it leaves them out, and without the agent tools as its `agents` says.
 */
export function toolsOfTry<T extends string>(offered: readonly T[], tried: FixedPartTry, uses: WorkspaceUses): T[] {
  const leaveOut = tried.unused === "leave-out";
  const unused = new Set<string>([
    ...(leaveOut && !uses.knowledge ? KNOWLEDGE_TOOL_NAMES : []),
    ...(leaveOut && !uses.skills ? ["SkillLoad"] : []),
    ...(leaveOut && !uses.instructions ? ["InstructionsRead"] : []),
    ...(tried.agents === "none" || (tried.agents === "own" && !uses.ownAgents) ? AGENT_TOOL_NAMES : []),
  ]);
  return offered.filter((name) => !unused.has(name));
}

/**
 * The budget of the prompt's budgeted sections when the unbudgeted ones and the tools take `fixedTokens`: the usual
 * budget (HINTLINE_WORKSPACE_BUDGET, at most a quarter of the window), at most what FIXED_SHARE leaves.
 */
export function sectionsBudget(configured: number, contextWindow: number, fixedTokens: number): number {
  const left = Math.floor(contextWindow * FIXED_SHARE) - fixedTokens;
  return Math.max(0, Math.min(promptBudget(configured, contextWindow), left));
}

/**
 * Whether a try's fixed part will do: one that offers every tool only while the tools and the unbudgeted sections
 * (`coreTokens`) take at most ALL_TOOLS_SHARE of the window, any while the whole fixed part (`totalTokens`) is within
 * FIXED_SHARE. The last try always does: nothing is left to leave out (what is over is the person's own text).
 */
export function tryFits(
  tried: FixedPartTry,
  contextWindow: number,
  { coreTokens, totalTokens }: { coreTokens: number; totalTokens: number },
): boolean {
  if (tried === FIXED_PART_TRIES.at(-1)) return true;
  if (tried.unused === "keep" && coreTokens > contextWindow * ALL_TOOLS_SHARE) return false;
  return totalTokens <= contextWindow * FIXED_SHARE;
}
