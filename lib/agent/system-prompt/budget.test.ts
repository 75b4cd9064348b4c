import { describe, expect, it } from "vitest";
import { countTokens } from "../token-count.ts";
import { assembleSystemPrompt } from "./assemble.ts";
import { BUDGETED_SECTIONS, budgetedSections, CUT_ORDER, fitToBudget, promptBudget, wholeParts } from "./budget.ts";
import type { PromptContext, PromptCuts } from "./types.ts";
import type { WorkspaceSnapshot } from "./workspace.ts";

const lines = (n: number, text: string) => Array.from({ length: n }, (_, i) => `${text} ${i}`);
const workspace: WorkspaceSnapshot = {
  name: "Research",
  instructions: lines(300, "Workspace rule number").join("\n"),
  memory: lines(200, "Remembered fact about the project, number"),
  knowledgeIndex: lines(300, "Index line of the domain knowledge, number").join("\n"),
  files: Array.from({ length: 80 }, (_, i) => ({ path: `notes/topic-${i}.md`, bytes: 1000 + i })),
  skills: Array.from({ length: 30 }, (_, i) => ({
    name: `skill-${i}`,
    description: `Writes the report of kind ${i} from the notes, step by step`,
  })),
  agents: Array.from({ length: 20 }, (_, i) => ({
    id: `agent-${i}`,
    description: `Reviews the reports of kind ${i} against the notes`,
  })),
};
const context = (budget: number, patch: Partial<PromptContext> = {}): PromptContext => ({
  conversation: {
    instructions: lines(200, "Conversation rule").join("\n"),
    memory: lines(200, "Conversation note").join("\n"),
  },
  defaults: {},
  taskToolNames: ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"],
  workspaceBudget: budget,
  countTokens,
  workspace,
  ...patch,
});
const budgetedTokens = (prompt: ReturnType<typeof assembleSystemPrompt>) =>
  prompt.sections.filter((s) => BUDGETED_SECTIONS.includes(s.id)).reduce((n, s) => n + s.tokens, 0);

// The budgeted sections' size with the first `k` parts of the cut order cut to nothing and the others whole.
const whole = wholeParts(context(0));
const cutFirst = (k: number): PromptCuts =>
  Object.fromEntries(CUT_ORDER.map((part, i) => [part, i < k ? 0 : whole[part]])) as PromptCuts;
const sizeWithFirstCut = (k: number) =>
  budgetedSections(context(0), cutFirst(k)).reduce((n, s) => n + countTokens(s.text), 0);
/** A budget that makes part `k` of the cut order the one cut: everything before it gone, everything after it whole. */
const budgetCutting = (k: number) => Math.floor((sizeWithFirstCut(k) + sizeWithFirstCut(k + 1)) / 2);

const NOTES: Record<keyof PromptCuts, RegExp> = {
  memory: /\[Memory cut to the budget: \d+ of 200 entries shown\. Search the rest with MemorySearch\.\]/,
  settingsMemory: /\[Memory truncated: \d+ of \d+ tokens shown \(workspace budget \d+ tokens\)\.\]/,
  knowledge:
    /\[KNOWLEDGE\.md cut to the budget: \d+ of 300 lines shown\. Read the rest with KnowledgeRead KNOWLEDGE\.md\.\]/,
  skills: /\[Skill descriptions cut to the budget: \d+ of 30 shown\. SkillLoad loads any skill by name\.\]/,
  agents: /\[Agent ids cut to the budget: \d+ of 20 listed\. AgentList lists every agent id\.\]/,
  files: /\[File list cut to the budget: \d+ of 80 files listed\. List them all with KnowledgeList\.\]/,
  instructions:
    /\[Instructions cut to the budget \(\d+ tokens\): \d+ of \d+ tokens shown\. Read them whole with InstructionsRead\.\]/,
  settingsInstructions:
    /\[Instructions cut to the budget \(\d+ tokens\): \d+ of \d+ tokens shown\. The rest is in the conversation's prompt settings/,
};

describe("the one budget of the system prompt", () => {
  it("is HINTLINE_WORKSPACE_BUDGET, at most a quarter of the conversation's window", () => {
    expect(promptBudget(8_000, 128_000)).toBe(8_000);
    expect(promptBudget(8_000, 8_192)).toBe(2_048);
    expect(promptBudget(1_234, 400_000)).toBe(1_234);
    expect(promptBudget(100_000, 16_001)).toBe(4_000);
  });

  it("cuts nothing and adds no note when everything fits", () => {
    const prompt = assembleSystemPrompt(context(1_000_000));
    expect(fitToBudget(context(1_000_000))).toEqual(whole);
    for (const note of Object.values(NOTES)) expect(prompt.text).not.toMatch(note);
    expect(prompt.text).toContain("Remembered fact about the project, number 199");
  });

  // One case per step of the cut order: the part is cut (partly), every part before it is gone, every part after it
  // is whole, and the budgeted sections fit the budget.
  for (const [k, part] of CUT_ORDER.entries()) {
    it(`step ${k + 1} of the cut order: ${part}, once ${k ? `${CUT_ORDER.slice(0, k).join(", ")} are gone` : "over the budget"}`, () => {
      const budget = budgetCutting(k);
      const ctx = context(budget);
      const cuts = fitToBudget(ctx);
      CUT_ORDER.forEach((other, i) => {
        if (i < k) expect(cuts[other], other).toBe(0);
        if (i > k) expect(cuts[other], other).toBe(whole[other]);
      });
      expect(cuts[part]).toBeGreaterThan(0);
      expect(cuts[part]).toBeLessThan(whole[part]);
      const prompt = assembleSystemPrompt(ctx);
      expect(budgetedTokens(prompt)).toBeLessThanOrEqual(budget);
      expect(budgetedTokens(prompt)).toBeGreaterThan(budget - 60);
      expect(prompt.text).toMatch(NOTES[part]);
      for (const later of CUT_ORDER.slice(k + 1)) expect(prompt.text).not.toMatch(NOTES[later]);
    });
  }

  it("keeps the oldest memory entries, the first lines and files, and every skill's name when descriptions go", () => {
    const memoryCut = assembleSystemPrompt(context(budgetCutting(0))).text;
    expect(memoryCut).toContain("- Remembered fact about the project, number 0\n");
    expect(memoryCut).not.toContain("project, number 199");
    const skillsCut = assembleSystemPrompt(context(budgetCutting(CUT_ORDER.indexOf("skills")))).text;
    expect(skillsCut).not.toContain("<memory_context>\n- Remembered");
    expect(skillsCut).toContain("[KNOWLEDGE.md cut to the budget: 0 of 300 lines shown.");
    expect(skillsCut).toContain("- skill-0: Writes the report of kind 0");
    expect(skillsCut).toContain("\n- skill-29\n");
    const instructionsCut = assembleSystemPrompt(context(budgetCutting(CUT_ORDER.indexOf("instructions")))).text;
    expect(instructionsCut).toContain("<agents_context>\nWorkspace rule number 0\n");
    expect(instructionsCut).not.toContain("Workspace rule number 299");
    expect(instructionsCut).toContain("Conversation rule 199");
  });

  it("fits every budget it can, and below the notes' own size cuts everything to its note", () => {
    for (const budget of [100, 700, 1_500, 2_048, 3_000, 5_000, 8_000]) {
      const ctx = context(budget);
      const cuts = fitToBudget(ctx);
      const minimum = budgetedSections(ctx, cutFirst(CUT_ORDER.length)).reduce((n, s) => n + countTokens(s.text), 0);
      const used = budgetedTokens(assembleSystemPrompt(ctx));
      if (budget >= minimum) expect(used, `budget ${budget}`).toBeLessThanOrEqual(budget);
      else expect(cuts).toEqual(cutFirst(CUT_ORDER.length));
      // The cut order holds: a part is cut only when every part before it is gone.
      const firstCut = CUT_ORDER.findIndex((part) => cuts[part] < whole[part]);
      if (firstCut >= 0) for (const part of CUT_ORDER.slice(0, firstCut)) expect(cuts[part]).toBe(0);
      for (const part of CUT_ORDER.slice(firstCut + 1))
        if (cuts[part] < whole[part])
          expect(CUT_ORDER.slice(0, CUT_ORDER.indexOf(part)).every((p) => cuts[p] === 0)).toBe(true);
    }
  });

  it("gives the same prompt, byte for byte, every time it is assembled from the same parts", () => {
    const budget = budgetCutting(2);
    const a = assembleSystemPrompt(context(budget)).text;
    const b = assembleSystemPrompt({
      ...context(budget),
      workspace: { ...workspace, memory: [...workspace.memory] },
    }).text;
    expect(b).toBe(a);
  });

  it("tells where a global default's instructions are when it cuts them", () => {
    const ctx = context(budgetCutting(CUT_ORDER.indexOf("settingsInstructions")), {
      conversation: {},
      defaults: { instructions: lines(200, "Global rule").join("\n") },
    });
    expect(assembleSystemPrompt(ctx).text).toMatch(/tokens shown\. The rest is in the server's HINTLINE_INSTRUCTIONS/);
  });
});
