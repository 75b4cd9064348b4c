// The demo model's plan mode: asked to plan ("plan a blog post", "plan: a; b; c", or anything while the newest Mode
// reminder says PLAN) it reads the tasks, then writes a markdown plan with PlanWrite; right after the BUILD reminder,
// or asked to "build it", it creates one task per list item of the plan. A write refused in plan mode is said so.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { unescapeValue } from "../agent/hints/render-hint.ts";
import { type DemoToolCall, errorInWords, type ReplySegment, summarizeResults } from "./demo-tasks.ts";
import { withoutCallCount } from "../agent/tool-result.ts";

const PLAN_MARK = "PLAN MODE is active (read-only)";
const BUILD_MARK = "You have switched from PLAN to BUILD mode";

type Part = { type: string; text?: string; toolName?: string; input?: unknown };
const partsOf = (m: LanguageModelV4Prompt[number]): Part[] =>
  typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as Part[]);
const textOf = (m: LanguageModelV4Prompt[number]) =>
  partsOf(m)
    .map((p) => p.text ?? "")
    .join("\n");
const isReminder = (text: string) => text.trimStart().startsWith("<system-reminder>");

/** The newest Mode reminder: which mode it announced, and whether it came after the person's last message. */
export function newestModeReminder(
  prompt: LanguageModelV4Prompt,
): { mode: "plan" | "build"; inThisReply: boolean } | undefined {
  let personSeen = false;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!;
    if (m.role !== "user") continue;
    const text = textOf(m);
    if (!isReminder(text)) {
      personSeen = true;
      continue;
    }
    if (text.includes(PLAN_MARK)) return { mode: "plan", inThisReply: !personSeen };
    if (text.includes(BUILD_MARK)) return { mode: "build", inThisReply: !personSeen };
  }
  return undefined;
}

/** The newest plan the prompt holds: the BUILD reminder's approved plan, or the content of the last PlanWrite call. */
export function newestPlan(prompt: LanguageModelV4Prompt): string | undefined {
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!;
    const parts = partsOf(m);
    for (let p = parts.length - 1; p >= 0; p--) {
      const part = parts[p]!;
      if (m.role === "user" && part.text && isReminder(part.text)) {
        const approved = /<approved-plan>\n?([\s\S]*?)\n?<\/approved-plan>/.exec(part.text);
        if (approved) return approved[1];
      }
      if (part.type === "tool-call" && part.toolName === "PlanWrite") {
        const input = typeof part.input === "string" ? safeParse(part.input) : part.input;
        const content = (input as { content?: unknown } | undefined)?.content;
        if (typeof content === "string") return content;
      }
    }
  }
  return undefined;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A plan's steps: its list items ("- x", "* x", "1. x", with or without a checkbox). */
export function planSteps(plan: string): string[] {
  return plan
    .split("\n")
    .map((line) => /^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.+)$/.exec(line)?.[1])
    .filter((item): item is string => !!item?.trim())
    .map((item) => unescapeValue(item).trim())
    .slice(0, 20);
}

/** The markdown plan the demo writes for a request. */
export function demoPlan(request: string, taskListText: string | undefined): string {
  const said = request.trim().replace(/[.?!]+$/, "");
  const listed = /^plan\s*:\s*(.+)$/is.exec(said);
  const topic = (/^(?:please\s+)?(?:make\s+a\s+)?plan\s+(?:for\s+|out\s+)?(.+)$/is.exec(said)?.[1] ?? said).slice(
    0,
    80,
  );
  const steps = listed
    ? listed[1]!
        .split(/;|\n/)
        .map((s) => unescapeValue(s).trim())
        .filter(Boolean)
        .slice(0, 20)
    : [`Outline ${topic}`, `Draft ${topic}`, `Review ${topic}`, `Publish ${topic}`];
  const open =
    taskListText && !/^No tasks/.test(taskListText)
      ? taskListText.split("\n").filter((l) => /^\S+ \[(pending|in_progress)\]/.test(l)).length
      : 0;
  return [
    `# Plan: ${listed ? "the steps you listed" : topic}`,
    "",
    `The task list has ${open === 0 ? "no open tasks" : `${open} open task${open === 1 ? "" : "s"}`}, so this starts fresh.`,
    "",
    "## Steps",
    ...steps.map((s) => `- ${s}`),
  ].join("\n");
}

export type PlanDecision = { text: string; calls?: DemoToolCall[] };

/**
 * What the demo does about plan mode in this reply, or undefined when plan mode has nothing to do with it.
 * `planned` are the task calls the person's words ask for (those go their usual way, and are refused while planning).
 */
export function planModeDecision(
  prompt: LanguageModelV4Prompt,
  segment: ReplySegment,
  planned: readonly DemoToolCall[],
): PlanDecision | undefined {
  const reminder = newestModeReminder(prompt);
  const said = segment.personText.trim();
  const refused = segment.results.filter((r) => r.isError && r.text.startsWith("PlanModeError"));
  if (refused.length) {
    return {
      text: `Plan mode is on (read-only), so I couldn't change the task list: ${refused.length === 1 ? "the call was" : `all ${refused.length} calls were`} refused and nothing changed. I can write a plan instead; switch to build (**Approve and build**) when you want me to make changes.`,
    };
  }
  if (planned.length) return undefined;

  const asked = /^(?:build(?: it)?|go(?: ahead)?|do it|approved?)\b/i.test(said);
  const building =
    reminder?.mode === "build" ? reminder.inThisReply || asked : !reminder && asked && newestPlan(prompt) !== undefined;
  if (building) {
    if (segment.calledTools.includes("TaskCreate")) return { text: summarizeResults(segment) };
    const steps = planSteps(newestPlan(prompt) ?? "");
    if (!steps.length)
      return { text: "Build mode is on, but the plan has no list of steps for me to turn into tasks." };
    return {
      text: "",
      // The description says where the task came from; the subject already says what it is.
      calls: steps.map((subject, i) => ({
        toolName: "TaskCreate",
        input: { subject, description: `Step ${i + 1} of ${steps.length} of the approved plan.` },
      })),
    };
  }

  const planning = /^(?:please\s+)?(?:make\s+a\s+)?plan\b/i.test(said) || reminder?.mode === "plan";
  if (!planning) return undefined;
  if (!segment.calledTools.includes("TaskList")) return { text: "", calls: [{ toolName: "TaskList", input: {} }] };
  if (!segment.calledTools.includes("PlanWrite")) {
    const list = segment.results.find((r) => r.toolName === "TaskList");
    return {
      text: "",
      calls: [{ toolName: "PlanWrite", input: { content: demoPlan(said, list && withoutCallCount(list.text)) } }],
    };
  }
  const result = segment.results.findLast((r) => r.toolName === "PlanWrite");
  if (!result || result.isError)
    return { text: `I couldn't save the plan: ${result ? errorInWords(result.text) : "the save did not answer."}` };
  const version = /version (\d+)/.exec(result.text)?.[1];
  return {
    text:
      reminder?.mode === "plan"
        ? `I've written the plan${version ? ` (version ${version})` : ""}: it's in the side panel. Edit it if you like, then press **Approve and build** and I'll turn its steps into tasks.`
        : `I've written the plan${version ? ` (version ${version})` : ""}: it's in the side panel. Say *build it* when you want me to turn its steps into tasks.`,
  };
}
