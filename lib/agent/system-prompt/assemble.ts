// The system prompt's middleware chain, in order. Adding a transformer is one module and one line here.
import { basePrompt, instructions, memory, taskGuidance } from "./transformers.ts";
import type { PromptContext, PromptSection, PromptTransformer } from "./types.ts";
import { availableSkills, workspaceSection } from "./workspace.ts";

/** Custom transformers run after the base prompt and before the workspace sections. */
export const CUSTOM_TRANSFORMERS: PromptTransformer[] = [];

export const PROMPT_CHAIN: readonly PromptTransformer[] = [
  basePrompt,
  ...CUSTOM_TRANSFORMERS,
  workspaceSection,
  instructions,
  memory,
  taskGuidance,
  availableSkills,
];

export const DEFAULT_WORKSPACE_BUDGET = 8_000;

export type AssembledPrompt = { text: string; sections: Array<PromptSection & { tokens: number }> };

export function assembleSystemPrompt(context: PromptContext, chain: readonly PromptTransformer[] = PROMPT_CHAIN): AssembledPrompt {
  const sections = chain.reduce<PromptSection[]>((acc, transform) => transform(acc, context), []);
  return {
    text: sections.map((s) => s.text).join("\n\n"),
    sections: sections.map((s) => ({ ...s, tokens: context.countTokens(s.text) })),
  };
}
