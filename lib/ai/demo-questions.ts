// The demo model's answers to the evaluation's questions (eval/), by fixed rules over exactly the input it receives:
// notes, recall of a planted identifier (from the messages, the summary and its evidence ledger), how long ago the
// person asked, tomorrow's weekday, the room left before compression, open tasks and the next one, and recovering
// from a tool call that keeps failing. What it was not told, it cannot know — which is what the evaluation measures.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { findIdentifiers } from "../agent/evidence-ledger.ts";
import type { LedgerKind } from "../chat-message.ts";
import { type DemoToolCall, plannedCalls, type ReplySegment, taskListInWords } from "./demo-tasks.ts";
import { callCountOf, withoutCallCount } from "../agent/tool-result.ts";

type Part = {
  type: string;
  text?: string;
  toolName?: string;
  toolCallId?: string;
  input?: unknown;
  output?: { type: string; value: unknown };
};
type Message = LanguageModelV4Prompt[number];
const partsOf = (m: Message): Part[] =>
  typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as Part[]);
const textOf = (m: Message) =>
  partsOf(m)
    .map((p) => p.text ?? "")
    .join("\n");
const isReminder = (text: string) => text.trimStart().startsWith("<system-reminder>");
const valueText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

/** Every `<tag>` value in the reminders, oldest first, with the index of its message. */
function reminderValues(prompt: LanguageModelV4Prompt, tag: string): Array<{ index: number; value: string }> {
  const found: Array<{ index: number; value: string }> = [];
  const pattern = new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, "g");
  prompt.forEach((m, index) => {
    if (m.role !== "user") return;
    const text = textOf(m);
    if (!isReminder(text)) return;
    for (const match of text.matchAll(pattern)) found.push({ index, value: match[1]! });
  });
  return found;
}

/** A reminder's wall-clock time, read as if it were UTC (the demo only compares and shifts wall-clock times). */
function wallClock(value: string): Date | undefined {
  const m = /(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})/.exec(value);
  return m ? new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!)) : undefined;
}

const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

function personIndexes(prompt: LanguageModelV4Prompt): number[] {
  return prompt.flatMap((m, i) => (m.role === "user" && !isReminder(textOf(m)) ? [i] : []));
}

function howLongAgo(prompt: LanguageModelV4Prompt): string {
  const times = reminderValues(prompt, "current-time");
  const people = personIndexes(prompt);
  const previous = people.at(-2);
  const now = times.at(-1);
  if (previous === undefined) return "This is the first thing you asked me in this conversation.";
  // The time known when the person asked: the first reminder after that message (before the next one), else the last before it.
  const next = people.find((i) => i > previous) ?? prompt.length;
  const then = times.find((t) => t.index > previous && t.index < next) ?? times.findLast((t) => t.index < previous);
  const [a, b] = [then && wallClock(then.value), now && wallClock(now.value)];
  if (!a || !b || then === now) return "I can't tell: I haven't been told the time since you asked.";
  const minutes = Math.round((b.getTime() - a.getTime()) / 60_000);
  return `You asked ${Math.floor(minutes / 60)} hours ${minutes % 60} minutes ago.`;
}

function tomorrow(prompt: LanguageModelV4Prompt): string {
  const now = reminderValues(prompt, "current-time").at(-1);
  const today = now && wallClock(now.value);
  if (!today) return "I haven't been told today's date, so I can't say what day tomorrow is.";
  const next = new Date(today.getTime() + 86_400_000);
  return `Tomorrow is ${WEEKDAYS[next.getUTCDay()]}, ${next.toISOString().slice(0, 10)}.`;
}

function roomLeft(prompt: LanguageModelV4Prompt): string {
  const usage = reminderValues(prompt, "context-length").at(-1)?.value;
  const m = usage && /contains (\d+) tokens\. When reaching (\d+) tokens/.exec(usage);
  if (!m) return "I haven't been told how full my context is.";
  const [used, trigger] = [Number(m[1]), Number(m[2])];
  return `About ${Math.max(0, trigger - used)} tokens are left before my context is compressed (${used} of ${trigger} used).`;
}

type Picture = Map<string, { subject: string; status: string }>;

/**
 * The task list as the input shows it: the newest TaskList result or tasks reminder that lists every open task, with
 * the creations and updates after it.
 */
export function taskPicture(prompt: LanguageModelV4Prompt): Picture {
  const tasks: Picture = new Map();
  const inputs = new Map<string, unknown>();
  for (const m of prompt) {
    for (const p of partsOf(m)) {
      const listed = m.role === "user" && p.text ? remindedOpenTasks(p.text) : undefined;
      if (listed) {
        tasks.clear();
        for (const [id, task] of listed) tasks.set(id, task);
      }
      if (p.type === "tool-call" && p.toolCallId)
        inputs.set(p.toolCallId, typeof p.input === "string" ? safeJson(p.input) : p.input);
      if (p.type !== "tool-result" || !p.output || p.output.type.startsWith("error")) continue;
      const text = withoutCallCount(valueText(p.output.value));
      if (p.toolName === "TaskList" && !/^… /m.test(text)) {
        tasks.clear();
        for (const line of text.split("\n")) {
          const row = /^(\d+) \[(\w+)\] (.+?)(?: \[blocked by [^\]]*\])?$/.exec(line);
          if (row) tasks.set(row[1]!, { status: row[2]!, subject: row[3]! });
        }
      }
      const created = /^Task \(id=(\d+)\) created successfully: (.+)$/m.exec(text);
      if (p.toolName === "TaskCreate" && created) tasks.set(created[1]!, { subject: created[2]!, status: "pending" });
      const updated = /^Update task \(id=(\d+)\)/.exec(text);
      const status = (inputs.get(p.toolCallId ?? "") as { status?: string } | undefined)?.status;
      if (p.toolName === "TaskUpdate" && updated && status) {
        if (status === "deleted") tasks.delete(updated[1]!);
        else tasks.set(updated[1]!, { subject: tasks.get(updated[1]!)?.subject ?? "", status });
      }
    }
  }
  return tasks;
}

/** The open tasks a tasks reminder lists ("[2] pending Book a van"), when it lists them all. */
function remindedOpenTasks(text: string): Picture | undefined {
  const list = /<tasks>[\s\S]*?\nOpen tasks:\n([\s\S]*?)<\/tasks>/.exec(text)?.[1];
  if (list === undefined || /^… and \d+ more/m.test(list)) return undefined;
  const open: Picture = new Map();
  for (const line of list.split("\n")) {
    const row = /^\[(\d+)\] (pending|in_progress) (.+)$/.exec(line);
    if (row) open.set(row[1]!, { status: row[2]!, subject: row[3]! });
  }
  return open;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function openTasks(prompt: LanguageModelV4Prompt): string {
  const open = [...taskPicture(prompt).values()].filter((t) => t.status === "pending" || t.status === "in_progress");
  const inProgress = open.filter((t) => t.status === "in_progress").length;
  return `You have ${open.length} open tasks (${inProgress} in progress, ${open.length - inProgress} pending).`;
}

/** Whether a tasks hint since the person's last message says they changed the list (in the side panel). */
function editedByPerson(prompt: LanguageModelV4Prompt): boolean {
  const asked = personIndexes(prompt).at(-1) ?? -1;
  return reminderValues(prompt, "tasks").some((r) => r.index > asked && /The user updated the task list/.test(r.value));
}

function nextTask(prompt: LanguageModelV4Prompt): string {
  const entries = [...taskPicture(prompt).entries()];
  const next = entries.find(([, t]) => t.status === "in_progress") ?? entries.find(([, t]) => t.status === "pending");
  const seen = editedByPerson(prompt)
    ? "You changed the task list in the panel — I was told in a hint and read it again. "
    : "";
  return `${seen}${next ? `Next up: task #${next[0]} — ${next[1].subject}.` : "There is nothing left to do: no open tasks."}`;
}

const KIND_WORDS: ReadonlyArray<readonly [LedgerKind, RegExp]> = [
  ["command", /\bcommands?\b/],
  ["url", /\b(?:url|link|address)\b/],
  ["path", /\b(?:path|file|directory|folder)\b/],
  ["number", /\b(?:how (?:big|much|many|long|large)|size|limit|timeout|number|value|cost|port)\b/],
];
const STOPWORDS = new Set(
  "what was the which where how is are did does for of and that this with from into you your path file command big much many long large size limit value".split(
    " ",
  ),
);

/** "What was the path of X?": the identifier of that kind whose line shares the most words with the question. */
function recall(prompt: LanguageModelV4Prompt, question: string): string | undefined {
  const lower = question.toLowerCase();
  if (!/^(?:what|which|how|where)\b/.test(lower)) return undefined;
  const kind = KIND_WORDS.find(([, words]) => words.test(lower))?.[0];
  if (!kind) return undefined;
  const keywords = [...new Set(lower.match(/[a-z0-9][a-z0-9-]{2,}/g) ?? [])].filter((w) => !STOPWORDS.has(w));
  let best: { value: string; score: number } | undefined;
  const asked = personIndexes(prompt).at(-1);
  prompt.forEach((m, index) => {
    if (m.role === "system" || index === asked) return;
    const texts = partsOf(m).map((p) => p.text ?? (p.output ? valueText(p.output.value) : ""));
    for (const line of texts.join("\n").split("\n")) {
      const words = new Set(line.toLowerCase().match(/[a-z0-9][a-z0-9-]{2,}/g) ?? []);
      const score = keywords.filter((k) => words.has(k)).length;
      if (!score || (best && score < best.score)) continue;
      const found = findIdentifiers(line).find((f) => f.kind === kind);
      if (found) best = { value: found.value, score };
    }
  });
  if (!best) return "I don't have that in what I can see of our conversation.";
  return kind === "command" ? `It was \`${best.value}\`.` : `It was ${best.value}.`;
}

/** The demo's answer to one of the evaluation's questions, or undefined when the message is none of them. */
export function answerQuestion(prompt: LanguageModelV4Prompt, said: string): string | undefined {
  const lower = said.toLowerCase();
  if (/^(?:note|remember)\b/.test(lower)) return "Noted.";
  if (/how long ago/.test(lower)) return howLongAgo(prompt);
  if (/\btomorrow\b/.test(lower) && /what day/.test(lower)) return tomorrow(prompt);
  if (/how much room|room (?:is )?left|tokens (?:are )?left/.test(lower)) return roomLeft(prompt);
  if (/how many (?:open )?tasks/.test(lower)) return openTasks(prompt);
  if (/what (?:should|do) i do next|next task|what'?s next/.test(lower)) return nextTask(prompt);
  return recall(prompt, said);
}

/**
 * After a TaskUpdate that failed because the task does not exist: follow the error's advice (TaskList once) and
 * report; without advice, retry — and with the call counter, give up after the third attempt. Without either, the
 * demo retries until the reply's step limit, as a model that is told nothing might.
 */
export function recoveryDecision(segment: ReplySegment): { text: string; calls?: DemoToolCall[] } | undefined {
  const failed = segment.results.filter(
    (r) => r.toolName === "TaskUpdate" && r.isError && /does not exist/.test(r.text),
  );
  if (!failed.length) return undefined;
  const last = segment.results.at(-1)!;
  const id = /\(id=(\d+)\)/.exec(failed.at(-1)!.text)?.[1] ?? "?";
  if (last.toolName === "TaskList" && !last.isError) {
    return { text: `Task #${id} does not exist, so nothing changed. ${taskListInWords(last.text)}` };
  }
  if (last !== failed.at(-1)) return undefined;
  if (/What to do: Call TaskList/.test(last.text) && !segment.calledTools.includes("TaskList")) {
    return { text: "", calls: [{ toolName: "TaskList", input: {} }] };
  }
  const attempts = callCountOf(last.text) ?? 0;
  if (attempts && failed.length >= 3) {
    return { text: `Task #${id} does not exist: I tried ${failed.length} times, so I stopped. Nothing changed.` };
  }
  return { text: "", calls: plannedCalls(segment.personText) };
}
