// The transformers of the system-prompt chain. Each adds or rewrites sections; none reads a clock or a counter, so
// the prompt is byte-identical from call to call until the person edits it (time, tasks and usage are hints).
import type { PromptContext, PromptSection, PromptTransformer } from "./types.ts";

export const DEFAULT_BASE_PROMPT = [
  "You are Hintline, a helpful assistant in a chat with a person.",
  "Answer clearly and concisely; use Markdown where it helps (lists, code blocks).",
].join("\n");

function pick(
  context: PromptContext,
  key: "base" | "instructions" | "memory",
): { text: string; origin: string } | undefined {
  const own = context.conversation[key]?.trim();
  if (own) return { text: own, origin: "conversation settings" };
  const global = context.defaults[key]?.trim();
  if (global) return { text: global, origin: "global default" };
  return undefined;
}

export const basePrompt: PromptTransformer = (sections, context) => {
  const chosen = pick(context, "base");
  return [
    ...sections,
    {
      id: "base",
      title: "Base prompt",
      origin: chosen?.origin ?? "default",
      text: chosen?.text ?? DEFAULT_BASE_PROMPT,
    },
  ];
};

/** Cuts text to at most `budget` tokens on a line boundary where possible. */
export function cutToTokens(text: string, budget: number, countTokens: (t: string) => number): string {
  if (budget <= 0) return "";
  if (countTokens(text) <= budget) return text;
  let low = 0;
  let high = text.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (countTokens(text.slice(0, mid)) <= budget) low = mid;
    else high = mid - 1;
  }
  const cut = text.slice(0, low);
  const lineEnd = cut.lastIndexOf("\n");
  return lineEnd > low * 0.8 ? cut.slice(0, lineEnd) : cut;
}

export const INSTRUCTIONS_HEADER = "# Instructions\nStanding rules from the person; follow them throughout.";
export const MEMORY_HEADER = "# Memory\nNotes kept across conversations; use them when relevant.";

/** The settings part the prompt holds: the conversation's own, else the global default (none: neither is set). */
export function settingsPart(
  context: PromptContext,
  key: "instructions" | "memory",
): { text: string; origin: string } | undefined {
  return pick(context, key);
}

/** `text` cut to `keep` tokens (whole when unset or enough), with `note` saying how much was shown. */
function tokensWithin(
  text: string,
  keep: number | undefined,
  countTokens: (t: string) => number,
  note: (shown: number, total: number) => string,
): string {
  if (keep === undefined) return text;
  const total = countTokens(text);
  if (keep >= total) return text;
  const shown = cutToTokens(text, keep, countTokens);
  return `${shown}${shown ? "\n" : ""}${note(shown ? countTokens(shown) : 0, total)}`;
}

/** The settings instructions: cut last of everything the budget covers, and then with a note. */
export const instructions: PromptTransformer = (sections, context) => {
  const chosen = pick(context, "instructions");
  if (!chosen) return sections;
  const note = (shown: number, total: number) =>
    `[Instructions cut to the budget (${context.workspaceBudget} tokens): ${shown} of ${total} tokens shown. The rest is in the ${chosen.origin === "global default" ? "server's HINTLINE_INSTRUCTIONS" : "conversation's prompt settings"}, which you cannot read: ask the person when it matters.]`;
  const text = tokensWithin(chosen.text, context.cuts?.settingsInstructions, context.countTokens, note);
  return [
    ...sections,
    { id: "instructions", title: "Instructions", origin: chosen.origin, text: `${INSTRUCTIONS_HEADER}\n${text}` },
  ];
};

/** The settings memory: cut right after the workspace memory, with a note. */
export const memory: PromptTransformer = (sections, context) => {
  const chosen = pick(context, "memory");
  if (!chosen) return sections;
  const note = (shown: number, total: number) =>
    `[Memory truncated: ${shown} of ${total} tokens shown (workspace budget ${context.workspaceBudget} tokens).]`;
  const text = tokensWithin(chosen.text, context.cuts?.settingsMemory, context.countTokens, note);
  return [...sections, { id: "memory", title: "Memory", origin: chosen.origin, text: `${MEMORY_HEADER}\n${text}` }];
};

/** The task guidance in brief (a small window's fixed part). */
export const compactTaskGuidance = (tools: string) =>
  [
    "# Tasks and system reminders",
    `For work with several steps keep a task list (${tools}): one task per step, one in_progress at a time, completed when done. The person sees it.`,
    "<system-reminder> blocks are added by the system, not the person: facts about the current state (time, open tasks, how full your context is); a later one supersedes an earlier one.",
    "A tool result ends with a call counter, for reference only. When a result ends with a warning that you repeated an identical call, do not make it again.",
  ].join("\n");

export const taskGuidance: PromptTransformer = (sections, context) => {
  const [create, get, list, update] = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"].map((name) =>
    context.taskToolNames.includes(name) ? name : undefined,
  );
  const tools = [create, get, list, update].filter(Boolean).join(", ");
  if (context.compact)
    return [
      ...sections,
      { id: "task-guidance", title: "Task guidance", origin: "Hintline", text: compactTaskGuidance(tools) },
    ];
  const text = [
    "# Tasks and system reminders",
    `For work with several steps, keep a task list with the task tools (${tools}): create a task per step, set it to in_progress when you start it and completed when it is done, keep exactly one task in_progress at a time, and check TaskList to see what is left. The person can see and edit the same list.`,
    "Some messages in this conversation are <system-reminder> blocks. They are not written by the person: the system adds them with facts about the current state (the current time and timezone, your open tasks, how full your context is, and other fields). Treat them as true at the point where they appear; a later reminder supersedes an earlier one. You need not mention them unless they matter to the person's request.",
    'Every tool result ends with a call counter, "(Tool call #N for \'Name\' in this conversation.)": it counts that tool\'s calls over the whole conversation, for reference only. When a result ends with "Warning: this is call N of Name with these same arguments in this reply", you have made the identical call three times or more in this reply and got the same answer: do not call it again with those arguments; change the arguments, use another tool, or answer with what you know.',
  ].join("\n");
  return [...sections, { id: "task-guidance", title: "Task guidance", origin: "Hintline", text }];
};

export type { PromptSection };
