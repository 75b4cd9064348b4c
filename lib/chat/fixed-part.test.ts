import { asSchema } from "ai";
import { describe, expect, it } from "vitest";
import { FIXED_SHARE } from "../agent/fixed-part.ts";
import { defaultSettings, type Settings } from "../agent/settings.ts";
import type { WorkspaceSnapshot } from "../agent/system-prompt/types.ts";
import { countTokens } from "../agent/token-count.ts";
import { fixedPartFor } from "./fixed-part.ts";
import { createTools, TOOL_NAMES, toolDefinitionTokens } from "./tools/index.ts";
import type { FrozenWorkspace } from "./workspace-view.ts";

const words = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word}${i}`).join(" ");
const builtIn = { id: "general-purpose", description: "A general-purpose helper." };
const snapshots: Record<string, WorkspaceSnapshot | undefined> = {
  none: undefined,
  default: {
    name: "Default",
    instructions: "",
    memory: [],
    knowledgeIndex: "",
    files: [],
    skills: [],
    agents: [builtIn],
  },
  full: {
    name: "Lab",
    instructions: `Answer in British English. ${words(3_000, "rule")}`,
    memory: Array.from({ length: 300 }, (_, i) => `The person prefers option ${i} for ${words(8, "topic")}`),
    knowledgeIndex: `# Index\n${Array.from({ length: 300 }, (_, i) => `- notes/file-${i}.md: ${words(6, "about")}`).join("\n")}`,
    files: Array.from({ length: 300 }, (_, i) => ({ path: `notes/file-${i}.md`, bytes: 1_000 + i })),
    skills: Array.from({ length: 40 }, (_, i) => ({ name: `skill-${i}`, description: words(12, "does") })),
    agents: [builtIn, ...Array.from({ length: 20 }, (_, i) => ({ id: `agent-${i}`, description: words(10, "does") }))],
    keepsFacts: true,
  },
};
const frozen = (name: string): FrozenWorkspace | undefined => {
  const snapshot = snapshots[name];
  return snapshot && { id: `fixed-part-${name}`, state: {} as FrozenWorkspace["state"], snapshot };
};
const withWindow = (contextWindow: number, settings: Settings = defaultSettings("UTC")): Settings => ({
  ...settings,
  context: { ...settings.context, contextWindow },
});

describe("a conversation's fixed part (system prompt and built-in tools)", () => {
  const windows = [4_096, 6_000, 8_192, 12_000, 16_384, 32_768, 131_072, 1_000_000];

  it("takes at most 35 % of the window at every size, whatever the workspace holds, for a conversation and a child", () => {
    for (const window of windows) {
      for (const name of Object.keys(snapshots)) {
        for (const owner of [
          {},
          { agent: { id: "reviewer", instructions: "Review." }, only: ["TaskList", "KnowledgeRead"] },
        ]) {
          const part = fixedPartFor(withWindow(window), frozen(name), window, owner);
          // The figure is the real count of what is sent: the prompt's text and the tools' definitions.
          expect(part.tokens).toBe(
            countTokens(part.prompt.text) + toolDefinitionTokens(part.tools.names, part.tools.style),
          );
          expect(part.tokens, `${name} at ${window}`).toBeLessThanOrEqual(window * FIXED_SHARE);
        }
      }
    }
  });

  it("is 72 % of a 4k window before issue 46 and at most a quarter after: brief tools, only those the workspace can use", () => {
    const part = fixedPartFor(withWindow(4_096), frozen("default"), 4_096);
    expect(part.tools.style).toBe("compact");
    expect(part.tools.names).toEqual([
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
    expect(part.tokens).toBeLessThanOrEqual(4_096 * 0.26);
    expect(part.prompt.text).toContain("# Subagents");
    expect(part.prompt.text).not.toContain("## When to delegate");
  });

  it("keeps every tool, in brief, at 8k, and every tool in full from 16k on", () => {
    const at8k = fixedPartFor(withWindow(8_192), frozen("default"), 8_192);
    expect(at8k.tools).toMatchObject({ names: TOOL_NAMES, style: "compact" });
    const at16k = fixedPartFor(withWindow(16_384), frozen("default"), 16_384);
    expect(at16k.tools).toMatchObject({ names: TOOL_NAMES, style: "full" });
    expect(at16k.prompt.text).toContain("## When to delegate");
  });

  it("is chosen the same, byte for byte, from the same inputs (the provider's cached prefix)", () => {
    const first = fixedPartFor(withWindow(4_096), frozen("full"), 4_096);
    const again = fixedPartFor(withWindow(4_096), { ...frozen("full")! }, 4_096);
    expect(again.prompt.text).toBe(first.prompt.text);
    expect(again.tools).toEqual(first.tools);
  });

  it("describes a tool in brief without changing its name or how its input is checked", async () => {
    const ctx = { conversationId: "", nextCallNumber: () => 0, onTasksChanged: () => {} };
    const full = createTools(ctx, TOOL_NAMES, true, "full");
    const compact = createTools(ctx, TOOL_NAMES, true, "compact");
    expect(Object.keys(compact)).toEqual(Object.keys(full));
    const inputs = [{}, { task_id: "3", status: "bogus" }, { subject: 4 }, { query: "x" }, { path: "a.md", offset: 0 }];
    for (const name of TOOL_NAMES) {
      const [fullSchema, compactSchema] = [full[name], compact[name]].map((t) => asSchema(t.inputSchema as never));
      expect(JSON.stringify(compactSchema!.jsonSchema)).not.toMatch(/"description":"|\$schema/);
      expect(compact[name].description!.length).toBeLessThan(120);
      for (const input of inputs) {
        const [a, b] = await Promise.all([fullSchema!.validate!(input), compactSchema!.validate!(input)]);
        expect(b.success, `${name} ${JSON.stringify(input)}`).toBe(a.success);
      }
    }
    // A parameter named "description" is data, not a description: it stays.
    const taskCreate = asSchema(compact.TaskCreate.inputSchema as never).jsonSchema as { properties: object };
    expect(Object.keys(taskCreate.properties)).toEqual(["subject", "description", "metadata"]);
  });
});
