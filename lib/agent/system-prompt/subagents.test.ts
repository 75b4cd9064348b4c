import { describe, expect, it } from "vitest";
import { countTokens } from "../token-count.ts";
import { diffWorkspace, describeChange, parseWorkspaceState, type WorkspaceState } from "../workspace-changes.ts";
import { assembleSystemPrompt } from "./assemble.ts";
import { BUDGETED_SECTIONS, fitToBudget } from "./budget.ts";
import type { PromptContext, WorkspaceSnapshot } from "./types.ts";

const snapshot = (agents?: WorkspaceSnapshot["agents"]): WorkspaceSnapshot => ({
  name: "default",
  instructions: "",
  memory: [],
  knowledgeIndex: "",
  files: [],
  skills: [],
  ...(agents ? { agents } : {}),
});
const prompt = (
  workspace: WorkspaceSnapshot,
  agent?: { id: string; instructions: string },
  patch: Partial<PromptContext> = {},
) =>
  assembleSystemPrompt({
    conversation: {},
    defaults: {},
    taskToolNames: ["TaskCreate"],
    workspaceBudget: 8000,
    countTokens,
    workspace,
    ...(agent ? { agent } : {}),
    ...patch,
  });
const agents = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    id: `agent-${i}`,
    description: `Reads the notes of area ${i} and answers with a short, sourced report`,
  }));

describe("the Subagents section", () => {
  it("is a top-level section listing the agent ids with their descriptions, the tools and when to delegate", () => {
    const text = prompt(
      snapshot([
        { id: "general-purpose", description: "A helper." },
        { id: "reviewer", description: "Reviews <system-reminder> diffs." },
      ]),
    ).text;
    expect(text).toMatch(
      /\n\n# Subagents\n[\s\S]*## Agent Tools\n- AgentSpawn \{ agent_id, task, label\?, timeout_seconds\? \}[\s\S]*## Available agent ids\n- general-purpose: A helper\.\n- reviewer: Reviews &lt;system-reminder&gt; diffs\.\n## When to delegate\n/,
    );
    expect(text).not.toMatch(/^##+ Subagents$/m);
  });

  it("comes right after the base prompt, first of the harness's sections, and the skills list last", () => {
    const full: WorkspaceSnapshot = {
      ...snapshot(agents(2)),
      instructions: "Cite sources.",
      memory: ["Prefers metric units"],
      skills: [{ name: "release-notes", description: "Writes release notes" }],
    };
    const ids = (p: ReturnType<typeof prompt>) => p.sections.map((s) => s.id);
    const settings = { conversation: { instructions: "Be brief.", memory: "Likes tea." } };
    expect(ids(prompt(full, undefined, settings))).toEqual([
      "base",
      "subagents",
      "workspace",
      "instructions",
      "memory",
      "task-guidance",
      "skills",
    ]);
    expect(ids(prompt(full, { id: "reviewer", instructions: "List the bugs." }, settings))).toEqual([
      "base",
      "agent",
      "subagents",
      "workspace",
      "instructions",
      "memory",
      "task-guidance",
      "skills",
    ]);
  });

  it("is left out of a conversation that cannot spawn (a subagent at the maximum depth), its budget given to the rest", () => {
    const ws = { ...snapshot(agents(3)), memory: Array.from({ length: 400 }, (_, i) => `Fact ${i} about the project`) };
    const child = { id: "reviewer", instructions: "List the bugs." };
    const cannot = prompt(ws, child, { spawns: false, workspaceBudget: 1_000 });
    expect(cannot.sections.map((s) => s.id)).toEqual(["base", "agent", "workspace", "task-guidance"]);
    expect(cannot.text).not.toContain("AgentSpawn");
    const can = prompt(ws, child, { workspaceBudget: 1_000 });
    const kept = (p: ReturnType<typeof prompt>) => (p.text.match(/- Fact \d+ about/g) ?? []).length;
    expect(kept(cannot)).toBeGreaterThan(kept(can));
  });

  it("is counted inside the one budget: its agent ids are cut, with a note, and the budgeted sections fit", () => {
    const ws = snapshot(agents(30));
    const whole = prompt(ws, undefined, { workspaceBudget: 100_000 });
    const budgeted = (p: ReturnType<typeof prompt>) =>
      p.sections.filter((s) => BUDGETED_SECTIONS.includes(s.id)).reduce((n, s) => n + s.tokens, 0);
    expect(BUDGETED_SECTIONS).toContain("subagents");
    expect(budgeted(whole)).toBe(whole.sections.find((s) => s.id === "subagents")!.tokens);
    const budget = budgeted(whole) - 200;
    const context: PromptContext = {
      conversation: {},
      defaults: {},
      taskToolNames: ["TaskCreate"],
      workspaceBudget: budget,
      countTokens,
      workspace: ws,
    };
    const cuts = fitToBudget(context);
    expect(cuts.agents).toBeGreaterThan(0);
    expect(cuts.agents).toBeLessThan(30);
    const cut = prompt(ws, undefined, { workspaceBudget: budget });
    expect(budgeted(cut)).toBeLessThanOrEqual(budget);
    expect(budgeted(cut)).toBeGreaterThan(budget - 40);
    expect(cut.text).toContain(
      `[Agent ids cut to the budget: ${cuts.agents} of 30 listed. AgentList lists every agent id.]`,
    );
    expect(cut.text).toContain("- agent-0: Reads the notes of area 0");
    expect(cut.text).not.toContain("- agent-29:");
  });

  it("is absent from a prompt frozen before agents existed (the prompt stays byte-identical)", () => {
    expect(prompt(snapshot()).text).not.toContain("# Subagents");
    expect(prompt(snapshot()).text).toBe(prompt(snapshot([])).text);
  });

  it("puts a child's agent instructions right after the base prompt", () => {
    const sections = prompt(snapshot([{ id: "general-purpose", description: "A helper." }]), {
      id: "reviewer",
      instructions: "List the bugs.",
    }).sections;
    expect(sections.map((s) => s.id)).toEqual(["base", "agent", "subagents", "task-guidance"]);
    expect(sections[1]!.text).toBe("# Agent: reviewer\nList the bugs.");
  });
});

describe("agent definitions in the Workspace hint", () => {
  const state = (agents?: WorkspaceState["agents"]): WorkspaceState => ({
    name: "w",
    instructions: "",
    memory: [],
    knowledgeIndex: "",
    files: [],
    skills: [],
    ...(agents ? { agents } : {}),
  });

  it("tells an agent added, changed or removed since the prompt was frozen", () => {
    const changes = diffWorkspace(
      state([
        { id: "a", description: "old" },
        { id: "b", description: "b" },
      ]),
      state([
        { id: "a", description: "new" },
        { id: "c", description: "c" },
      ]),
    );
    expect(changes.map(describeChange)).toEqual([
      "- Agent changed: a: new (agents you spawn from now on follow the new definition).",
      "- Agent added: c: c (spawn it with AgentSpawn).",
      "- Agent removed: b (AgentSpawn no longer knows it).",
    ]);
  });

  it("reads a state stored before agents as having none, and keeps stored agents", () => {
    expect(parseWorkspaceState(state())?.agents).toBeUndefined();
    expect(parseWorkspaceState({ ...state(), agents: [{ id: "a", description: "d" }, { id: 1 }] })?.agents).toEqual([
      { id: "a", description: "d" },
    ]);
  });
});
