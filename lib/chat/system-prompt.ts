// The system prompt for a conversation: its own prompt settings over the global defaults from the environment, and
// its workspace as frozen in its view (lib/chat/workspace-view.ts).
import { assembleSystemPrompt, type AssembledPrompt } from "../agent/system-prompt/assemble.ts";
import { DEFAULT_WORKSPACE_BUDGET, promptBudget } from "../agent/system-prompt/budget.ts";
import type { Settings } from "../agent/settings.ts";
import { choiceFor } from "../ai/providers/choice.ts";
import { createTokenCounter } from "../agent/token-count.ts";
import { approximateBytes, sharedBoundedMap } from "../bounded-map.ts";
import { envNumber } from "../env-number.ts";
import { type ChildRun, depthOf } from "../db/subagents.ts";
import { spawnsAt, subagentsEnabled } from "../agent/tool-catalog.ts";
import type { FrozenWorkspace } from "./workspace-view.ts";

const countTokens = createTokenCounter();

/** HINTLINE_WORKSPACE_BUDGET: the budget before the window's share caps it. */
export const configuredWorkspaceBudget = () =>
  envNumber("HINTLINE_WORKSPACE_BUDGET", DEFAULT_WORKSPACE_BUDGET) || DEFAULT_WORKSPACE_BUDGET;

/**
 * The context window a budget is worked out for: the conversation's own setting, else its model's (`modelWindow`; the
 * server's model when not given, as the workspace screen shows it).
 */
export const budgetWindow = (settings?: Settings, modelWindow?: number) =>
  settings?.context.contextWindow ?? modelWindow ?? choiceFor().info.contextWindow;

/**
 * The one budget of a conversation's workspace section, settings instructions and memory, and skills list: the
 * configured budget, at most a quarter of its context window (stable while the conversation keeps its window setting
 * and its model; a model switch is a cache break anyway).
 */
export const workspaceBudget = (settings?: Settings, modelWindow?: number) =>
  promptBudget(configuredWorkspaceBudget(), budgetWindow(settings, modelWindow));

// Assembled prompts by what they were assembled from: a call whose settings and frozen workspace did not change gets
// the same prompt without counting its sections again. A conversation's own prompt may hold 400,000 characters, and its
// text is in the key as well: bounded by bytes too, one cache for the process.
export const SYSTEM_PROMPTS_MAX_BYTES = 16 * 1024 * 1024;
const assembled = sharedBoundedMap<string, AssembledPrompt>("system-prompts", {
  maxEntries: 200,
  maxBytes: SYSTEM_PROMPTS_MAX_BYTES,
  sizeOf: (key, prompt) => 2 * key.length + approximateBytes(prompt),
});

/** A subagent's agent, as its system prompt holds it (frozen when it was spawned). */
export type PromptAgent = { id: string; instructions: string };

/**
 * Who the prompt is for: a subagent's agent (none: the person's conversation), and whether the conversation may spawn
 * (false: a subagent at the maximum depth; default: subagents are on).
 */
export type PromptFor = { agent?: PromptAgent; spawns?: boolean };

/** The budget of the budgeted sections when the fixed part needs a smaller one than the usual (lib/chat/fixed-part.ts). */
export type PromptBudget = { budget?: number; compact?: boolean };

export function systemPromptFor(
  settings: Settings,
  workspace: FrozenWorkspace | null | undefined,
  modelWindow: number,
  {
    agent,
    spawns = subagentsEnabled(),
    budget = workspaceBudget(settings, modelWindow),
    compact = false,
  }: PromptFor & PromptBudget = {},
): AssembledPrompt {
  const key = `${promptSourceOf(settings, modelWindow)}\u0000${workspace?.id ?? ""}\u0000${budget}\u0000${spawns}\u0000${compact}${agent ? `\u0000${agent.id}\u0000${agent.instructions}` : ""}`;
  const cached = assembled.get(key);
  if (cached) return cached;
  const prompt = assembleSystemPrompt({
    conversation: settings.prompt,
    defaults: {
      base: process.env.HINTLINE_BASE_PROMPT,
      instructions: process.env.HINTLINE_INSTRUCTIONS,
      memory: process.env.HINTLINE_MEMORY,
    },
    taskToolNames: settings.injection.taskToolNames,
    workspaceBudget: budget,
    countTokens,
    workspace: workspace?.snapshot,
    ...(agent ? { agent } : {}),
    spawns,
    compact,
  });
  assembled.set(key, prompt);
  return prompt;
}

/** A conversation's prompt owner: a child's agent and whether it may spawn at its depth (none: the person's). */
export async function promptForChild(child: { id: string; run: ChildRun } | null): Promise<PromptFor> {
  if (!child) return {};
  return { agent: promptAgentOf(child.run), spawns: spawnsAt(await depthOf({ id: child.id })) };
}

/** The agent a child's system prompt holds: the definition it was spawned with. */
export const promptAgentOf = (run: ChildRun): PromptAgent => ({
  id: run.agentId,
  instructions: run.instructions ?? "",
});

/** What the system prompt is assembled from: when this changes, so may the prompt (the person's edit). */
export function promptSourceOf(settings: Settings, modelWindow: number): string {
  const env = process.env;
  return JSON.stringify([
    settings.prompt,
    settings.injection.taskToolNames,
    env.HINTLINE_BASE_PROMPT,
    env.HINTLINE_INSTRUCTIONS,
    env.HINTLINE_MEMORY,
    workspaceBudget(settings, modelWindow),
  ]);
}
