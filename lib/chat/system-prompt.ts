// The system prompt for a conversation: its own prompt settings over the global defaults from the environment.
import { assembleSystemPrompt, type AssembledPrompt, DEFAULT_WORKSPACE_BUDGET } from "../agent/system-prompt/assemble.ts";
import type { Settings } from "../agent/settings.ts";
import { createTokenCounter } from "../agent/token-count.ts";
import { envNumber } from "../env-number.ts";

const countTokens = createTokenCounter();

export function systemPromptFor(settings: Settings): AssembledPrompt {
  return assembleSystemPrompt({
    conversation: settings.prompt,
    defaults: {
      base: process.env.HINTLINE_BASE_PROMPT,
      instructions: process.env.HINTLINE_INSTRUCTIONS,
      memory: process.env.HINTLINE_MEMORY,
    },
    taskToolNames: settings.injection.taskToolNames,
    workspaceBudget: envNumber("HINTLINE_WORKSPACE_BUDGET", DEFAULT_WORKSPACE_BUDGET) || DEFAULT_WORKSPACE_BUDGET,
    countTokens,
  });
}

/** What the system prompt is assembled from: when this changes, so may the prompt (the person's edit). */
export function promptSourceOf(settings: Settings): string {
  const env = process.env;
  return JSON.stringify([settings.prompt, settings.injection.taskToolNames, env.HINTLINE_BASE_PROMPT, env.HINTLINE_INSTRUCTIONS, env.HINTLINE_MEMORY]);
}
