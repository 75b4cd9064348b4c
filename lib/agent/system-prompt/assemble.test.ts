import { describe, expect, it } from "vitest";
import { countTokens } from "../token-count.ts";
import { assembleSystemPrompt, PROMPT_CHAIN } from "./assemble.ts";
import { basePrompt, DEFAULT_BASE_PROMPT, memory, taskGuidance } from "./transformers.ts";
import type { PromptContext, PromptTransformer } from "./types.ts";

const context = (patch: Partial<PromptContext> = {}): PromptContext => ({
  conversation: {},
  defaults: {},
  taskToolNames: ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"],
  workspaceBudget: 8_000,
  countTokens,
  ...patch,
});

describe("system prompt chain", () => {
  it("runs base → custom → instructions → memory → task guidance, in that order", () => {
    const custom: PromptTransformer = (sections) => [
      ...sections,
      { id: "custom", title: "Custom", origin: "test", text: "CUSTOM" },
    ];
    const chain = [PROMPT_CHAIN[0]!, custom, ...PROMPT_CHAIN.slice(1)];
    const prompt = assembleSystemPrompt(
      context({ conversation: { instructions: "Be brief.", memory: "Likes tea." } }),
      chain,
    );
    expect(prompt.sections.map((s) => s.id)).toEqual(["base", "custom", "instructions", "memory", "task-guidance"]);
    expect(prompt.text.startsWith(DEFAULT_BASE_PROMPT)).toBe(true);
    expect(prompt.text).toContain("# Instructions\nStanding rules from the person; follow them throughout.\nBe brief.");
    expect(prompt.text).toContain("# Memory\nNotes kept across conversations; use them when relevant.\nLikes tea.");
    expect(prompt.sections.every((s) => s.tokens === countTokens(s.text))).toBe(true);
  });

  it("prefers the conversation's parts over the global defaults and says where each came from", () => {
    const prompt = assembleSystemPrompt(
      context({
        conversation: { base: "You are Ada.", memory: " " },
        defaults: { base: "You are Bob.", instructions: "Use metric units.", memory: "Global memory." },
      }),
    );
    expect(prompt.sections.map((s) => [s.id, s.origin])).toEqual([
      ["base", "conversation settings"],
      ["instructions", "global default"],
      ["memory", "global default"],
      ["task-guidance", "Hintline"],
    ]);
    expect(prompt.text.startsWith("You are Ada.")).toBe(true);
  });

  it("cuts memory to the workspace budget with a visible note, counting with the real tokenizer", () => {
    const longMemory = Array.from({ length: 3000 }, (_, i) => `note ${i}: the person prefers concise answers`).join(
      "\n",
    );
    const instructionsText = "Always answer in English.";
    const prompt = assembleSystemPrompt(
      context({ workspaceBudget: 500, conversation: { instructions: instructionsText, memory: longMemory } }),
    );
    const workspace = prompt.sections.filter((s) => s.id === "instructions" || s.id === "memory");
    const used = workspace.reduce((n, s) => n + s.tokens, 0);
    expect(used).toBeLessThanOrEqual(500);
    expect(used).toBeGreaterThan(450);
    const mem = prompt.sections.find((s) => s.id === "memory")!;
    expect(mem.text).toMatch(/\[Memory truncated: \d+ of \d+ tokens shown \(workspace budget 500 tokens\)\.\]$/);
    expect(mem.text).toContain("note 0:");
    expect(mem.text).not.toContain("note 2999:");
  });

  it("is byte-identical from call to call and holds nothing volatile", () => {
    const ctx = context({ conversation: { instructions: "Be brief.", memory: "Likes tea." } });
    const a = assembleSystemPrompt(ctx).text;
    const b = assembleSystemPrompt({ ...ctx, conversation: { ...ctx.conversation } }).text;
    expect(b).toBe(a);
    expect(a).not.toMatch(/\d{4}-\d\d-\d\d|\d\d:\d\d/);
  });

  it("explains the task tools and what system reminders are, without secrecy clauses", () => {
    const [guidance] = taskGuidance([], context());
    expect(guidance!.text).toContain("TaskCreate, TaskGet, TaskList, TaskUpdate");
    expect(guidance!.text).toMatch(/<system-reminder>.*not written by the person/s);
    expect(guidance!.text).toMatch(/later reminder supersedes/);
    expect(guidance!.text).not.toMatch(/never reveal|do not reveal|secret|confidential/i);
  });

  it("adds nothing for empty parts", () => {
    expect(memory([], context())).toEqual([]);
    expect(basePrompt([], context({ conversation: { base: "  " } }))[0]!.origin).toBe("default");
  });
});
