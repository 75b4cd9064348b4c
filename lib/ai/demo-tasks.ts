// The demo model's task behaviours: turns "add tasks: a; b; c", "start 2", "finish 1", "cancel 3" and "what's left?"
// into real task tool calls, calls TaskList first when a tasks reminder arrives, and sums up tool results.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { unescapeValue } from "../agent/hints/render-hint.ts";
import { withoutCallCount } from "./tools/tool-result.ts";

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
    const text = partsOf(m).map((p) => p.text ?? "").join("\n");
    if (!isReminderText(text)) {
      start = i;
      personText = text;
      break;
    }
  }
  const segment: ReplySegment = { personText, calledTools: [], results: [], tasksReminder: false };
  for (const m of prompt.slice(start + 1)) {
    for (const p of partsOf(m)) {
      if (m.role === "user" && p.text && isReminderText(p.text) && p.text.includes("<tasks>")) segment.tasksReminder = true;
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


/** Lines as a Markdown list, one item per line (`indent` nests it under the item before). */
const asList = (lines: readonly string[], indent = "") => lines.map((l) => `${indent}- ${l}`).join("\n");

/** A short answer that sums up the tool results of this reply, lists laid out as Markdown lists. */
export function summarizeResults(segment: ReplySegment): string {
  const last = segment.results.at(-1);
  if (last?.toolName === "TaskList" && segment.results.length === 1 && !last.isError) {
    const lines = withoutCallCount(last.text).split("\n");
    return lines.length === 1 && !/^\S+ \[/.test(lines[0]!) ? lines[0]! : `Here is the task list:\n\n${asList(lines)}`;
  }
  const items = segment.results.map((r) => {
    const [first = "", ...rest] = withoutCallCount(r.text).split("\n");
    if (r.isError) return `⚠️ ${first}`;
    return rest.length ? `${first}\n${asList(rest, "  ")}` : first;
  });
  return `Done.\n\n${asList(items)}`;
}
