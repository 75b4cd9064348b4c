// A conversation's fixed part — its system prompt and its built-in tools' definitions — chosen so that together they
// take at most FIXED_SHARE of its context window (lib/agent/fixed-part.ts decides; this counts). What every model call,
// the context figure and the inspector take the prompt and the tools from.
import {
  FIXED_PART_TRIES,
  sectionsBudget,
  type ToolStyle,
  toolsOfTry,
  tryFits,
  workspaceUses,
} from "../agent/fixed-part.ts";
import type { AssembledPrompt } from "../agent/system-prompt/assemble.ts";
import { BUDGETED_SECTIONS } from "../agent/system-prompt/budget.ts";
import type { Settings } from "../agent/settings.ts";
import { AGENT_TOOL_NAMES, subagentsEnabled } from "../agent/tool-catalog.ts";
import { createTokenCounter } from "../agent/token-count.ts";
import { modelInfoFor } from "../ai/providers/choice.ts";
import { approximateBytes, sharedBoundedMap } from "../bounded-map.ts";
import { getChild } from "../db/subagents.ts";
import {
  budgetWindow,
  configuredWorkspaceBudget,
  type PromptFor,
  promptForChild,
  promptSourceOf,
  systemPromptFor,
} from "./system-prompt.ts";
import { offeredToolNames, type ToolName, toolDefinitionTokens } from "./tools/index.ts";
import { type FrozenWorkspace, promptWorkspace } from "./workspace-view.ts";

export type FixedPart = {
  prompt: AssembledPrompt;
  /** The built-in tools offered, how they are described, and what their definitions cost. */
  tools: { names: ToolName[]; style: ToolStyle; tokens: number };
  /** The prompt's tokens and the tools'. */
  tokens: number;
};

const countTokens = createTokenCounter();

// Chosen fixed parts by what they were chosen from (the system prompt's own cache holds the prompts).
const chosen = sharedBoundedMap<string, FixedPart>("fixed-parts", {
  maxEntries: 200,
  maxBytes: 4 * 1024 * 1024,
  sizeOf: (key, part) => 2 * key.length + approximateBytes(part.tools) + 64,
});

/** Who the fixed part is for: as for the prompt, and a subagent's own tool list (`only`). */
export type FixedPartFor = PromptFor & { only?: readonly string[] };

/**
 * The fixed part of a conversation's next call: the first of FIXED_PART_TRIES that fits its window, the prompt's
 * budgeted sections given what the unbudgeted ones and the tools leave of FIXED_SHARE. Stable while its inputs are.
 */
export function fixedPartFor(
  settings: Settings,
  workspace: FrozenWorkspace | null | undefined,
  modelWindow: number,
  { agent, spawns = subagentsEnabled(), only }: FixedPartFor = {},
): FixedPart {
  const key = JSON.stringify([
    promptSourceOf(settings, modelWindow),
    workspace?.id ?? "",
    spawns,
    agent ?? null,
    only ?? null,
    budgetWindow(settings, modelWindow),
  ]);
  const known = chosen.get(key);
  if (known) return known;
  const contextWindow = budgetWindow(settings, modelWindow);
  const uses = workspaceUses(workspace?.snapshot);
  const offered = offeredToolNames(only, spawns);
  let part: FixedPart | undefined;
  for (const tried of FIXED_PART_TRIES) {
    const names = toolsOfTry(offered, tried, uses);
    const toolTokens = toolDefinitionTokens(names, tried.style);
    const promptFor = {
      agent,
      spawns: spawns && names.some((name) => AGENT_TOOL_NAMES.includes(name)),
      compact: tried.style === "compact",
    };
    const usual = systemPromptFor(settings, workspace, modelWindow, promptFor);
    const coreTokens =
      toolTokens + usual.sections.reduce((n, s) => (BUDGETED_SECTIONS.includes(s.id) ? n : n + s.tokens), 0);
    const budget = sectionsBudget(configuredWorkspaceBudget(), contextWindow, coreTokens);
    const prompt = systemPromptFor(settings, workspace, modelWindow, { ...promptFor, budget });
    const tokens = countTokens(prompt.text) + toolTokens;
    part = { prompt, tools: { names, style: tried.style, tokens: toolTokens }, tokens };
    if (tryFits(tried, contextWindow, { coreTokens, totalTokens: tokens })) break;
  }
  chosen.set(key, part!);
  return part!;
}

/** The fixed part as lib/chat/context-measure.ts counts it. */
export const fixedOf = (part: FixedPart) => ({ system: part.prompt.text, toolTokens: part.tools.tokens });

/** A conversation's fixed part as its next call sends it, for views that write nothing. */
export async function conversationFixedPart(
  conversationId: string,
  settings: Settings,
  model: string | null | undefined,
): Promise<FixedPart> {
  const [workspace, child] = await Promise.all([promptWorkspace(conversationId), getChild({ id: conversationId })]);
  const owner = await promptForChild(child);
  return fixedPartFor(settings, workspace, modelInfoFor(model).contextWindow, {
    ...owner,
    ...(child ? { only: child.run.tools } : {}),
  });
}
