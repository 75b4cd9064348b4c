import { describe, expect, it } from "vitest";
import {
  ALL_TOOLS_SHARE,
  FIXED_PART_TRIES,
  FIXED_SHARE,
  sectionsBudget,
  toolsOfTry,
  tryFits,
  workspaceUses,
} from "./fixed-part.ts";
import type { WorkspaceSnapshot } from "./system-prompt/types.ts";
import { BUILT_IN_TOOL_NAMES } from "./tool-catalog.ts";

const empty: WorkspaceSnapshot = { name: "w", instructions: "", memory: [], knowledgeIndex: "", files: [], skills: [] };
const builtInAgent = { id: "general-purpose", description: "helper" };
const [fullKeep, compactKeep, compactAny, compactOwn, compactNone] = FIXED_PART_TRIES;

describe("workspaceUses", () => {
  it("says what the frozen workspace gives the tools that work on it", () => {
    expect(workspaceUses(undefined)).toEqual({
      knowledge: false,
      skills: false,
      instructions: false,
      ownAgents: false,
    });
    expect(workspaceUses({ ...empty, instructions: "  \n ", agents: [builtInAgent] })).toEqual({
      knowledge: false,
      skills: false,
      instructions: false,
      ownAgents: false,
    });
    expect(
      workspaceUses({
        ...empty,
        instructions: "Be brief.",
        files: [{ path: "a.md", bytes: 3 }],
        skills: [{ name: "s", description: "d" }],
        agents: [builtInAgent, { id: "reviewer", description: "reviews" }],
      }),
    ).toEqual({ knowledge: true, skills: true, instructions: true, ownAgents: true });
    expect(workspaceUses({ ...empty, knowledgeIndex: "# Index" }).knowledge).toBe(true);
  });
});

describe("toolsOfTry", () => {
  const nothing = workspaceUses({ ...empty, agents: [builtInAgent] });
  it("keeps every offered tool, in order, while a try keeps the unused ones and any agent", () => {
    expect(toolsOfTry(BUILT_IN_TOOL_NAMES, fullKeep!, nothing)).toEqual(BUILT_IN_TOOL_NAMES);
    expect(toolsOfTry(BUILT_IN_TOOL_NAMES, compactKeep!, nothing)).toEqual(BUILT_IN_TOOL_NAMES);
  });

  it("leaves out the knowledge tools without knowledge, SkillLoad without skills, InstructionsRead without instructions", () => {
    expect(toolsOfTry(BUILT_IN_TOOL_NAMES, compactAny!, nothing)).toEqual([
      "TaskCreate",
      "TaskGet",
      "TaskList",
      "TaskUpdate",
      "PlanWrite",
      "PlanRead",
      "MemoryWrite",
      "MemorySearch",
      "AgentSpawn",
      "AgentSend",
      "AgentList",
    ]);
    const all = { knowledge: true, skills: true, instructions: true, ownAgents: true };
    expect(toolsOfTry(BUILT_IN_TOOL_NAMES, compactAny!, all)).toEqual(BUILT_IN_TOOL_NAMES);
  });

  it("keeps the agent tools for the workspace's own agents only, then for none", () => {
    const agentTools = ["AgentSpawn", "AgentSend", "AgentList"];
    expect(toolsOfTry(BUILT_IN_TOOL_NAMES, compactOwn!, nothing)).not.toContain("AgentSpawn");
    const own = { ...nothing, ownAgents: true };
    expect(toolsOfTry(BUILT_IN_TOOL_NAMES, compactOwn!, own)).toEqual(expect.arrayContaining(agentTools));
    expect(toolsOfTry(BUILT_IN_TOOL_NAMES, compactNone!, own).filter((n) => agentTools.includes(n))).toEqual([]);
    // A subagent's own list stays its own: nothing is added.
    expect(toolsOfTry(["TaskList", "KnowledgeRead"], compactAny!, nothing)).toEqual(["TaskList"]);
  });
});

describe("sectionsBudget", () => {
  it("gives the budgeted sections what the fixed share leaves, at most the usual budget, never below zero", () => {
    // 35 % of 4,096 is 1,433: with 1,000 fixed, 433 are left (the usual budget there is a quarter: 1,024).
    expect(sectionsBudget(8_000, 4_096, 1_000)).toBe(433);
    expect(sectionsBudget(8_000, 4_096, 2_000)).toBe(0);
    // A large window: the configured budget (HINTLINE_WORKSPACE_BUDGET) still caps it.
    expect(sectionsBudget(8_000, 200_000, 3_000)).toBe(8_000);
    expect(sectionsBudget(8_000, 16_384, 2_700)).toBe(Math.floor(16_384 * FIXED_SHARE) - 2_700);
  });
});

describe("tryFits", () => {
  it("offers every tool only while the tools and the unbudgeted sections leave room; any try within the share", () => {
    const window = 8_192;
    const core = Math.floor(window * ALL_TOOLS_SHARE);
    expect(tryFits(fullKeep!, window, { coreTokens: core, totalTokens: core })).toBe(true);
    expect(tryFits(fullKeep!, window, { coreTokens: core + 1, totalTokens: core + 1 })).toBe(false);
    expect(tryFits(compactAny!, window, { coreTokens: core + 1, totalTokens: window * FIXED_SHARE })).toBe(true);
    expect(tryFits(compactAny!, window, { coreTokens: 100, totalTokens: window * FIXED_SHARE + 1 })).toBe(false);
    // The last try is taken whatever it costs: what is over is the person's own text.
    expect(tryFits(compactNone!, window, { coreTokens: window, totalTokens: window })).toBe(true);
  });
});
