// The demo model's task behaviours: turns "add tasks: a; b; c", "start 2", "finish 1", "cancel 3" and "what's left?"
// into real task tool calls, calls TaskList first when a tasks reminder without the list arrives, and sums up tool results.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { unescapeValue } from "../agent/hints/render-hint.ts";
import { withoutCallCount } from "../agent/tool-result.ts";

/** `rawInput`: arguments sent as this text instead of `input`'s JSON (not JSON at all, to exercise the harness's errors). */
export type DemoToolCall = { toolName: string; input: Record<string, unknown>; rawInput?: string };

const STATUS_WORDS: Array<[RegExp, string]> = [
  [/^(?:start|begin|work on)\s+(?:task\s+)?#?(\d+)\b/i, "in_progress"],
  [/^(?:finish|complete|done with|mark done)\s+(?:task\s+)?#?(\d+)\b/i, "completed"],
  [/^cancel\s+(?:task\s+)?#?(\d+)\b/i, "cancelled"],
  [/^(?:delete|remove)\s+(?:task\s+)?#?(\d+)\b/i, "deleted"],
];

/** The tool calls a person's message asks for, if any. */
export function plannedCalls(text: string): DemoToolCall[] {
  const said = text.trim();
  const add = /^add tasks?\s*:\s*(.+)$/is.exec(said);
  if (add) {
    // The model input escapes forged hint tags (`&lt;/tasks&gt;`): their `;` does not end a task, and the subject
    // gets the person's characters back.
    return add[1]!
      .split(/(?<!&(?:lt|gt|amp));|\n/)
      .map((s) => unescapeValue(s).trim())
      .filter(Boolean)
      .slice(0, 20)
      .map((subject) => ({ toolName: "TaskCreate", input: { subject, description: subject } }));
  }
  for (const [pattern, status] of STATUS_WORDS) {
    const m = pattern.exec(said);
    if (m) return [{ toolName: "TaskUpdate", input: { task_id: m[1], status } }];
  }
  if (/what'?s left|list (?:my |the )?tasks|show (?:my |the )?tasks|open tasks\??$/i.test(said)) {
    return [{ toolName: "TaskList", input: {} }];
  }
  return [];
}

type Part = { type: string; text?: string; toolName?: string; output?: { type: string; value: unknown } };

function partsOf(message: LanguageModelV4Prompt[number]): Part[] {
  return typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as Part[]);
}

const isReminderText = (text: string) => text.trimStart().startsWith("<system-reminder>");

export type ReplySegment = {
  personText: string;
  calledTools: string[];
  results: Array<{ toolName: string; text: string; isError: boolean }>;
  tasksReminder: boolean;
};

/** What happened since the person's last message: tool calls, their results, reminders. */
export function replySegment(prompt: LanguageModelV4Prompt): ReplySegment {
  let start = prompt.length;
  let personText = "";
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!;
    if (m.role !== "user") continue;
    const text = partsOf(m)
      .map((p) => p.text ?? "")
      .join("\n");
    if (!isReminderText(text)) {
      start = i;
      personText = text;
      break;
    }
  }
  const segment: ReplySegment = { personText, calledTools: [], results: [], tasksReminder: false };
  for (const m of prompt.slice(start + 1)) {
    for (const p of partsOf(m)) {
      // A reminder that lists the open tasks needs no TaskList; one with counts alone does.
      const tasks = m.role === "user" && p.text && isReminderText(p.text) ? p.text.split("<tasks>")[1] : undefined;
      if (tasks !== undefined && !tasks.includes("\nOpen tasks:\n")) segment.tasksReminder = true;
      if (p.type === "tool-call" && p.toolName) segment.calledTools.push(p.toolName);
      if (p.type === "tool-result" && p.toolName) {
        const value = p.output?.value;
        segment.results.push({
          toolName: p.toolName,
          text: typeof value === "string" ? value : JSON.stringify(value),
          isError: p.output?.type === "error-text" || p.output?.type === "error-json",
        });
      }
    }
  }
  return segment;
}

/** The next tool calls of the reply, or none when it is time to answer in text. */
export function nextCalls(segment: ReplySegment): DemoToolCall[] {
  const planned = plannedCalls(segment.personText);
  const onlyListing = planned.length === 1 && planned[0]!.toolName === "TaskList";
  if (segment.tasksReminder && !segment.calledTools.includes("TaskList") && !onlyListing) {
    return [{ toolName: "TaskList", input: {} }];
  }
  const done = planned.every((call) => segment.calledTools.includes(call.toolName));
  return done ? [] : planned;
}

/** Lines as a Markdown list, one item per line. */
const asList = (lines: readonly string[]) => lines.map((l) => `- ${l}`).join("\n");

const STATUS_WORD: Record<string, string> = {
  pending: "pending",
  in_progress: "in progress",
  completed: "done",
  cancelled: "cancelled",
};

/** A TaskList line ("2 [in_progress] Review (ana) [blocked by 1]") as a person reads it; undefined for another line. */
export function taskLineInWords(line: string): string | undefined {
  const m = /^(\d+) \[(\w+)\] (.*?)(?: \[blocked by ([\d, ]+)\])?$/.exec(line);
  if (!m) return undefined;
  const blocked = m[4]
    ? `, waiting for ${m[4]
        .split(/,\s*/)
        .map((id) => `#${id}`)
        .join(", ")}`
    : "";
  return `#${m[1]} ${m[3]} — ${STATUS_WORD[m[2]!] ?? m[2]}${blocked}`;
}

/** The task list as a Markdown list, or a sentence when there is none; what is meant for the model is left out. */
export function taskListInWords(result: string): string {
  const lines = withoutCallCount(result).split("\n");
  const tasks = lines.map(taskLineInWords).filter((l): l is string => l !== undefined);
  if (!tasks.length) return "You have no tasks yet.";
  const more = lines.some((l) => l.startsWith("… ")) ? "\n\nThere are more; ask me to show the rest." : "";
  return `Here are your tasks:\n\n${asList(tasks)}${more}`;
}

/** An error result's own sentence ("The task (id=9) does not exist."), without its type or the advice to the model. */
export function errorInWords(result: string): string {
  const first = withoutCallCount(result).split("\n")[0] ?? "";
  return first
    .replace(/^\w+Error:\s*/, "")
    .replace(/^PLAN MODE is on \(read-only\): /, "Plan mode is on, so nothing was changed: ");
}

/** After tasks are added: how to see a panel edit reach the agent (a tasks hint on the next message). */
export const PANEL_TIP =
  "Change one in the side panel (tick it off, rename it), then ask me *what's next?* — your edit reaches me as a hint.";

/**
 * A short answer that sums up what this reply's tool calls did, in the person's words: never the tool results
 * themselves, nor what they tell the model ("Call TaskList now…"). Lists are Markdown lists.
 */
export function summarizeResults(segment: ReplySegment): string {
  const last = segment.results.at(-1);
  if (last?.toolName === "TaskList" && segment.results.length === 1 && !last.isError) return taskListInWords(last.text);
  const requested = plannedCalls(segment.personText);
  const created: string[] = [];
  const said: string[] = [];
  for (const r of segment.results) {
    if (r.isError) {
      said.push(`I couldn't do that: ${errorInWords(r.text)}`);
      continue;
    }
    const text = withoutCallCount(r.text);
    const made = /^Task \(id=(\d+)\) created successfully: (.*)$/m.exec(text);
    if (made) {
      created.push(`#${made[1]} ${made[2]}`);
      continue;
    }
    const id = /\(id=(\d+)\)/.exec(text)?.[1];
    if (r.toolName === "TaskUpdate" && id) {
      const status = requested.find((c) => c.input.task_id === id)?.input.status as string | undefined;
      if (/has been deleted/.test(text)) said.push(`Task #${id} is deleted.`);
      else if (/^No updates/.test(text))
        said.push(`Task #${id} was already ${STATUS_WORD[status ?? ""] ?? "like that"}; nothing changed.`);
      else said.push(status ? `Task #${id} is now ${STATUS_WORD[status] ?? status}.` : `Task #${id} is updated.`);
      continue;
    }
    if (r.toolName === "TaskList") continue;
    said.push(text.split("\n")[0] ?? "");
  }
  const parts: string[] = [];
  if (created.length) {
    parts.push(`I added ${created.length === 1 ? "a task" : `${created.length} tasks`}:\n\n${asList(created)}`);
    parts.push(PANEL_TIP);
  }
  if (said.length === 1) parts.push(said[0]!);
  else if (said.length) parts.push(asList(said));
  return parts.join("\n\n") || "Done.";
}
