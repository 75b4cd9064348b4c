// One token budget over every section of the system prompt that grows with what the person and the agent store: the
// workspace section (its instructions, memory, KNOWLEDGE.md and file list), the settings instructions and memory, and
// the skills list. The budget is HINTLINE_WORKSPACE_BUDGET, at most a quarter of the conversation's context window,
// so the system prompt alone never comes near the compression trigger.
//
// When the budgeted sections exceed it, parts are cut in CUT_ORDER: the workspace memory first (the agent searches
// the rest with MemorySearch), then the settings memory, then KNOWLEDGE.md (it takes what cutting memory leaves), then
// the skills' descriptions (then their names), then the file list, and the instructions last — the workspace's (the
// agent reads them whole with InstructionsRead), then the settings' — each cut saying so in the prompt. A part is cut
// only once every part before it is cut to nothing. Pure: the same inputs give the same cuts, so the prompt stays
// byte-identical from call to call.
import { instructions, memory, settingsPart } from "./transformers.ts";
import type { PromptContext, PromptCuts, PromptSection } from "./types.ts";
import { availableSkills, escapeWorkspaceText, fileLines, knowledgeLines, memoryLines, skillLines, workspaceSection } from "./workspace.ts";

export const DEFAULT_WORKSPACE_BUDGET = 8_000;
/** The largest share of the context window the budgeted sections may take. */
export const WINDOW_SHARE = 0.25;

/** The budget for a conversation: the configured budget, at most WINDOW_SHARE of its context window. */
export function promptBudget(configured: number, contextWindow: number): number {
  return Math.max(0, Math.min(Math.floor(configured), Math.floor(contextWindow * WINDOW_SHARE)));
}

/** The parts in the order they are cut: the first goes first. */
export const CUT_ORDER: ReadonlyArray<keyof PromptCuts> = ["memory", "settingsMemory", "knowledge", "skills", "files", "instructions", "settingsInstructions"];

/** The sections the budget covers. */
export const BUDGETED_SECTIONS: readonly string[] = ["workspace", "instructions", "memory", "skills"];

const BUDGETED = [workspaceSection, instructions, memory, availableSkills];

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
    files: ws?.files.length ?? 0,
    instructions: tokens(ws ? escapeWorkspaceText(ws.instructions.trim()) : ""),
    settingsInstructions: tokens(settingsPart(context, "instructions")?.text),
  };
}

/**
 * What keeping the first `n` units of `part` costs, estimated from each unit counted on its own (close to the count
 * of them together; the real total is checked after).
 */
function unitCosts(part: keyof PromptCuts, context: PromptContext, countTokens: (t: string) => number): (n: number) => number {
  const ws = context.workspace;
  const prefix = (lines: readonly string[]) => {
    const sums = [0];
    for (const line of lines) sums.push(sums.at(-1)! + countTokens(`${line}\n`));
    return (n: number) => sums[Math.max(0, Math.min(n, lines.length))]!;
  };
  switch (part) {
    case "memory":
      return prefix(memoryLines(ws?.memory ?? []));
    case "knowledge":
      return prefix(knowledgeLines(ws?.knowledgeIndex ?? ""));
    case "files":
      return prefix(fileLines(ws?.files ?? []));
    case "skills": {
      const skills = skillLines(ws?.skills ?? []);
      const names = prefix(skills.map((s) => s.name));
      const extra = prefix(skills.map((s) => s.described.slice(s.name.length)));
      return (n: number) => (n <= skills.length ? names(n) : names(skills.length) + extra(n - skills.length));
    }
    default:
      return (n: number) => n; // token parts
  }
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
  const total = (cuts: PromptCuts) => budgetedSections(ctx, cuts).reduce((n, s) => n + countTokens(s.text), 0);
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
    const cost = unitCosts(part, ctx, countTokens);
    const largest = (ceiling: number) => {
      let [low, high] = [0, whole[part]];
      while (low < high) {
        const mid = Math.ceil((low + high) / 2);
        if (cost(mid) <= ceiling) low = mid;
        else high = mid - 1;
      }
      return low;
    };
    let keep = largest(budget - rest);
    for (;;) {
      const tried = { ...cuts, [part]: keep };
      const over = total(tried) - budget;
      if (over <= 0 || keep === 0) return over <= 0 ? tried : without;
      keep = Math.min(keep - 1, largest(cost(keep) - over));
    }
  }
  return cuts;
}
