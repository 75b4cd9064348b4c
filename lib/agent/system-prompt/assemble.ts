// The system prompt's middleware chain, in order. Adding a transformer is one module and one line here. The Subagents
// section comes right after the base prompt (and a child's agent instructions), as the harness's SubagentsMiddleware
// runs first of its middlewares; the workspace's sections follow, the skills list last.
import { fitToBudget } from "./budget.ts";
import { agentInstructions } from "./agent.ts";
import { basePrompt, instructions, memory, taskGuidance } from "./transformers.ts";
import type { PromptContext, PromptSection, PromptTransformer } from "./types.ts";
import { subagentsSection } from "./subagents.ts";
import { availableSkills, workspaceSection } from "./workspace.ts";

/** Custom transformers run after the base prompt and before the workspace sections. */
export const CUSTOM_TRANSFORMERS: PromptTransformer[] = [];

export const PROMPT_CHAIN: readonly PromptTransformer[] = [
  basePrompt,
  ...CUSTOM_TRANSFORMERS,
  agentInstructions,
  subagentsSection,
  workspaceSection,
  instructions,
  memory,
  taskGuidance,
  availableSkills,
];

export type AssembledPrompt = { text: string; sections: Array<PromptSection & { tokens: number }> };

/** The prompt: the chain run with the budgeted parts cut to the budget (lib/agent/system-prompt/budget.ts). */
export function assembleSystemPrompt(
  context: PromptContext,
  chain: readonly PromptTransformer[] = PROMPT_CHAIN,
): AssembledPrompt {
  const budgeted = { ...context, cuts: context.cuts ?? fitToBudget(context) };
  const sections = chain.reduce<PromptSection[]>((acc, transform) => transform(acc, budgeted), []);
  return {
    text: sections.map((s) => s.text).join("\n\n"),
    sections: sections.map((s) => ({ ...s, tokens: context.countTokens(s.text) })),
  };
}
