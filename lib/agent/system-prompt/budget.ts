// One token budget over every section of the system prompt that grows with what the person and the agent store: the
// Subagents section (its agent ids), the workspace section (its instructions, memory, KNOWLEDGE.md and file list), the
// settings instructions and memory, and the skills list. The budget is HINTLINE_WORKSPACE_BUDGET, at most a quarter of
// the conversation's context window, so the system prompt alone never comes near the compression trigger.
//
// When the budgeted sections exceed it, parts are cut in CUT_ORDER: the workspace memory first (the agent searches
// the rest with MemorySearch), then the settings memory, then KNOWLEDGE.md (it takes what cutting memory leaves), then
// the skills' descriptions (then their names), then the agent ids (AgentList lists them all), then the file list, and
// the instructions last — the workspace's (the agent reads them whole with InstructionsRead), then the settings' — each
// cut saying so in the prompt. A part is cut only once every part before it is cut to nothing. Pure: the same inputs
// give the same cuts, so the prompt stays byte-identical from call to call.
import { instructions, memory, settingsPart } from "./transformers.ts";
import { agentLines, subagentsSection } from "./subagents.ts";
import type { PromptContext, PromptCuts, PromptSection } from "./types.ts";
import {
  availableSkills,
  escapeWorkspaceText,
  fileLines,
  knowledgeLines,
  memoryLines,
  skillLines,
  workspaceSection,
} from "./workspace.ts";

export const DEFAULT_WORKSPACE_BUDGET = 8_000;
/** The largest share of the context window the budgeted sections may take. */
export const WINDOW_SHARE = 0.25;

/** The budget for a conversation: the configured budget, at most WINDOW_SHARE of its context window. */
export function promptBudget(configured: number, contextWindow: number): number {
  return Math.max(0, Math.min(Math.floor(configured), Math.floor(contextWindow * WINDOW_SHARE)));
}

/** The parts in the order they are cut: the first goes first. */
export const CUT_ORDER: ReadonlyArray<keyof PromptCuts> = [
  "memory",
  "settingsMemory",
  "knowledge",
  "skills",
  "agents",
  "files",
  "instructions",
  "settingsInstructions",
];

/** The sections the budget covers. */
export const BUDGETED_SECTIONS: readonly string[] = ["subagents", "workspace", "instructions", "memory", "skills"];

const BUDGETED = [subagentsSection, workspaceSection, instructions, memory, availableSkills];

/** The budgeted sections as `cuts` leave them. */
export function budgetedSections(context: PromptContext, cuts?: PromptCuts): PromptSection[] {
  return BUDGETED.reduce<PromptSection[]>((acc, transform) => transform(acc, { ...context, cuts }), []);
}

/** Every part whole, in its own units. */
export function wholeParts(context: PromptContext): PromptCuts {
  const ws = context.workspace;
  const tokens = (text: string | undefined) => (text ? context.countTokens(text) : 0);
  return {
    memory: ws?.memory.length ?? 0,
    settingsMemory: tokens(settingsPart(context, "memory")?.text),
    knowledge: ws ? knowledgeLines(ws.knowledgeIndex).length : 0,
    skills: 2 * (ws?.skills.length ?? 0),
    agents: context.spawns === false ? 0 : agentLines(ws?.agents ?? []).length,
    files: ws?.files.length ?? 0,
    instructions: tokens(ws ? escapeWorkspaceText(ws.instructions.trim()) : ""),
    settingsInstructions: tokens(settingsPart(context, "instructions")?.text),
  };
}

/** The most characters one token can take as lib/agent/token-count.ts counts (it counts long pieces in slices). */
const MAX_CHARS_PER_TOKEN = 256;

/**
 * The largest number of units of `part` whose estimated cost fits `ceiling` tokens, each unit counted on its own
 * (close to the count of them together; the real total is checked after). Units are counted only as far as they fit.
 */
function fitter(
  part: keyof PromptCuts,
  context: PromptContext,
  countTokens: (t: string) => number,
  whole: number,
): (ceiling: number) => number {
  const ws = context.workspace;
  if (part === "settingsMemory" || part === "instructions" || part === "settingsInstructions") {
    return (ceiling) => Math.max(0, Math.min(whole, Math.floor(ceiling))); // token parts
  }
  let units: string[];
  if (part === "memory") units = memoryLines(ws?.memory ?? []);
  else if (part === "knowledge") units = knowledgeLines(ws?.knowledgeIndex ?? "");
  else if (part === "files") units = fileLines(ws?.files ?? []);
  else if (part === "agents") units = agentLines(ws?.agents ?? []);
  else {
    // Skills: the names first, then the descriptions (what each adds to its name).
    const skills = skillLines(ws?.skills ?? []);
    units = [...skills.map((s) => s.name), ...skills.map((s) => s.described.slice(s.name.length))];
  }
  return (ceiling) => {
    let n = 0;
    let used = 0;
    while (n < whole) {
      const cost = countTokens(`${units[n]}\n`);
      if (used + cost > ceiling) break;
      used += cost;
      n++;
    }
    return n;
  };
}

/**
 * How much of each part fits the budget (context.workspaceBudget), cutting in CUT_ORDER. When even every part cut to
 * nothing exceeds it (the fixed guidance and the notes alone), everything is cut to nothing.
 */
export function fitToBudget(context: PromptContext): PromptCuts {
  // Counts within one fitting are remembered: the sections a step does not change are counted once.
  const counted = new Map<string, number>();
  const countTokens = (text: string) => {
    const known = counted.get(text);
    if (known !== undefined) return known;
    const n = context.countTokens(text);
    counted.set(text, n);
    return n;
  };
  const ctx = { ...context, countTokens };
  const budget = context.workspaceBudget;
  // A text longer than this cannot fit: it is not counted (a large KNOWLEDGE.md is not tokenized whole to be cut).
  const countable = Math.max(0, budget) * MAX_CHARS_PER_TOKEN;
  const total = (cuts: PromptCuts) => {
    const sections = budgetedSections(ctx, cuts);
    if (sections.reduce((n, s) => n + s.text.length, 0) > countable) return Number.POSITIVE_INFINITY;
    return sections.reduce((n, s) => n + countTokens(s.text), 0);
  };
  const whole = wholeParts(ctx);
  let cuts = { ...whole };
  if (total(cuts) <= budget) return cuts;
  for (const part of CUT_ORDER) {
    if (whole[part] === 0) continue;
    const without = { ...cuts, [part]: 0 };
    const rest = total(without);
    if (rest > budget) {
      cuts = without;
      continue;
    }
    // The most of this part that fits: estimated from its units' costs, then lowered until the real count fits.
    const largest = fitter(part, ctx, countTokens, whole[part]);
    let keep = largest(budget - rest);
    for (;;) {
      const tried = { ...cuts, [part]: keep };
      const over = total(tried) - budget;
      if (over <= 0) return tried;
      if (keep === 0) return without;
      // Lower by at least one unit, and by about the excess.
      keep = Math.min(keep - 1, largest(budget - rest - over));
    }
  }
  return cuts;
}
