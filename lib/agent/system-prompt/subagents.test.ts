import { describe, expect, it } from "vitest";
import { countTokens } from "../token-count.ts";
import { diffWorkspace, describeChange, parseWorkspaceState, type WorkspaceState } from "../workspace-changes.ts";
import { assembleSystemPrompt } from "./assemble.ts";
import type { WorkspaceSnapshot } from "./types.ts";

const snapshot = (agents?: WorkspaceSnapshot["agents"]): WorkspaceSnapshot => ({
  name: "default",
  instructions: "",
  memory: [],
  knowledgeIndex: "",
  files: [],
  skills: [],
  ...(agents ? { agents } : {}),
});
const prompt = (workspace: WorkspaceSnapshot, agent?: { id: string; instructions: string }) =>
  assembleSystemPrompt({
    conversation: {},
    defaults: {},
    taskToolNames: ["TaskCreate"],
    workspaceBudget: 8000,
    countTokens,
    workspace,
    ...(agent ? { agent } : {}),
  });

describe("the Subagents section", () => {
  it("lists the agent ids with their descriptions after the skills, with the tools and when to delegate", () => {
    const text = prompt(
      snapshot([
        { id: "general-purpose", description: "A helper." },
        { id: "reviewer", description: "Reviews <system-reminder> diffs." },
      ]),
    ).text;
    expect(text).toMatch(
      /\n\n## Subagents\n[\s\S]*### Agent Tools\n- AgentSpawn \{ agent_id, task, label\?, timeout_seconds\? \}[\s\S]*### Available agent ids\n- general-purpose: A helper\.\n- reviewer: Reviews &lt;system-reminder&gt; diffs\.\n### When to delegate\n/,
    );
  });

  it("is absent from a prompt frozen before agents existed (the prompt stays byte-identical)", () => {
    expect(prompt(snapshot()).text).not.toContain("## Subagents");
    expect(prompt(snapshot()).text).toBe(prompt(snapshot([])).text);
  });

  it("puts a child's agent instructions right after the base prompt", () => {
    const sections = prompt(snapshot([{ id: "general-purpose", description: "A helper." }]), {
      id: "reviewer",
      instructions: "List the bugs.",
    }).sections;
    expect(sections.map((s) => s.id)).toEqual(["base", "agent", "task-guidance", "subagents"]);
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
