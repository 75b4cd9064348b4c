// The demo model's subagent behaviours: "delegate: <task>" → AgentSpawn of general-purpose, whose answer comes back in
// the tool result; "delegate in background: <task>" → AgentSpawn with timeout_seconds 0, whose answer comes later as a
// System · Subagents reminder. As the child (its system prompt holds "# Agent: <id>"), it reads the workspace's
// knowledge with its tools first (KnowledgeList, then KnowledgeRead of the files that fit its task), visibly, and
// reports what it read — deterministically.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { DemoToolCall, ReplySegment } from "./demo-tasks.ts";
import { withoutCallCount } from "../agent/tool-result.ts";

const DELEGATE = /^delegate(\s+in\s+(?:the\s+)?background)?\s*:\s*(.+)$/is;

type Decision = { text: string; calls?: DemoToolCall[] };

/** AgentSpawn's label limit. */
const LABEL_MAX_CHARS = 80;

/** The task as its label: whole when it fits AgentSpawn's 80 characters, else cut at a word with "…". */
export function labelOf(task: string): string {
  const line = task.replace(/\s+/g, " ").trim();
  if (line.length <= LABEL_MAX_CHARS) return line;
  const cut = line.slice(0, LABEL_MAX_CHARS - 1);
  const atWord = cut.lastIndexOf(" ");
  return `${(atWord > LABEL_MAX_CHARS / 2 ? cut.slice(0, atWord) : cut).trimEnd()}…`;
}

/** What the demo does about "delegate: …" in this reply, or undefined when the message is none. */
export function delegationDecision(segment: ReplySegment): Decision | undefined {
  const match = DELEGATE.exec(segment.personText.trim());
  if (!match) return undefined;
  const task = match[2]!.trim();
  const result = segment.results.findLast((r) => r.toolName === "AgentSpawn");
  if (!segment.calledTools.includes("AgentSpawn") || !result) {
    const input = {
      agent_id: "general-purpose",
      task,
      label: labelOf(task),
      ...(match[1] ? { timeout_seconds: 0 } : {}),
    };
    return { text: "", calls: [{ toolName: "AgentSpawn", input }] };
  }
  const text = withoutCallCount(result.text);
  if (result.isError) return { text: `Delegating didn't work: ${text.split("\n")[0]!.replace(/^(\w+Error: )+/, "")}` };
  const key = /^agent_key: (\S+)/.exec(text)?.[1] ?? "the agent";
  const status = /^status: (.+)$/m.exec(text)?.[1] ?? "";
  if (status.startsWith("running")) {
    return {
      text: `I started **${key}** in the background. Its answer will reach me as a System · Subagents reminder when it finishes; the side panel shows it meanwhile.`,
    };
  }
  const answer = /\nanswer(?: so far)?:\n([\s\S]*)$/.exec(text)?.[1]?.trim() ?? "";
  return { text: `**${key}** (${status}) answered:\n\n${answer}` };
}

const systemText = (prompt: LanguageModelV4Prompt) =>
  prompt
    .filter((m) => m.role === "system")
    .map((m) => (typeof m.content === "string" ? m.content : ""))
    .join("\n");

/** Files a child reads at most before it reports. */
const CHILD_READS = 3;

const pathsListed = (listing: string) =>
  [...withoutCallCount(listing).matchAll(/^- (.+) \([\d,]+ bytes, [\d,]+ tokens\)$/gm)].map((m) => m[1]!);

/** The listed files that fit the task best (those whose path shares a word with it first), at most CHILD_READS. */
function filesFor(task: string, paths: readonly string[]): string[] {
  const words = new Set(task.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []);
  const shared = (path: string) => (path.toLowerCase().match(/[a-z0-9]{3,}/g) ?? []).filter((w) => words.has(w)).length;
  return [...paths]
    .map((path, i) => ({ path, i, score: shared(path) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, CHILD_READS)
    .map((f) => f.path);
}

/** A read file's first line of text, for the report. */
function firstLineOf(read: string): string {
  const line = withoutCallCount(read)
    .split("\n")
    .filter((l) => /^\s*\d+\t/.test(l))
    .map((l) =>
      l
        .replace(/^\s*\d+\t/, "")
        .replace(/^#+\s*/, "")
        .trim(),
    )
    .find(Boolean);
  if (!line) return "(empty)";
  return line.length > 120 ? `${line.slice(0, 119)}…` : line;
}

/**
 * As a subagent (its prompt names its agent): KnowledgeList first, then KnowledgeRead of the files that fit its task,
 * then a report on what it read; without those tools (`offered`), a fixed report. Undefined for any other conversation.
 */
export function childDecision(
  prompt: LanguageModelV4Prompt,
  segment: ReplySegment,
  offered: readonly string[],
): Decision | undefined {
  const agent = /^# Agent: ([a-z0-9-]+)$/m.exec(systemText(prompt))?.[1];
  if (!agent) return undefined;
  const task = segment.personText.replace(/\s+/g, " ").trim();
  const words = task.split(" ").filter(Boolean).length;
  const head = `Report from ${agent}: I looked into “${task.slice(0, 300)}” (${words} word${words === 1 ? "" : "s"})`;
  if (!offered.includes("KnowledgeList")) return { text: `${head} and found what was asked. Done.` };
  if (!segment.calledTools.includes("KnowledgeList"))
    return { text: "", calls: [{ toolName: "KnowledgeList", input: {} }] };
  const listing = segment.results.findLast((r) => r.toolName === "KnowledgeList" && !r.isError);
  const paths = listing ? pathsListed(listing.text) : [];
  if (!paths.length)
    return { text: `${head}. The workspace holds no knowledge files, so I had nothing to read. Done.` };
  if (offered.includes("KnowledgeRead") && !segment.calledTools.includes("KnowledgeRead"))
    return { text: "", calls: filesFor(task, paths).map((path) => ({ toolName: "KnowledgeRead", input: { path } })) };
  const reads = segment.results.filter((r) => r.toolName === "KnowledgeRead");
  const read = filesFor(task, paths).slice(0, reads.length);
  const lines = read.map((path, i) =>
    reads[i]!.isError ? `- \`${path}\`: could not be read` : `- \`${path}\`: ${firstLineOf(reads[i]!.text)}`,
  );
  const of = `${read.length} of the workspace's ${paths.length} knowledge file${paths.length === 1 ? "" : "s"}`;
  return { text: `${head} and read ${of}:\n\n${lines.join("\n")}\n\nDone.` };
}

/** A Subagents reminder that arrived in this reply: the demo says what it told. */
export function finishedAgentsNote(prompt: LanguageModelV4Prompt, segment: ReplySegment): string | undefined {
  if (segment.results.length) return undefined;
  let found: string | undefined;
  for (let i = prompt.length - 1; i >= 0; i--) {
    const m = prompt[i]!;
    if (m.role !== "user") continue;
    const text =
      typeof m.content === "string" ? m.content : m.content.map((p) => (p.type === "text" ? p.text : "")).join("");
    if (!text.trimStart().startsWith("<system-reminder>")) break;
    if (/finished in the background/.test(text)) found = text;
  }
  if (!found) return undefined;
  // Each answer comes in its own frame after the reminder: `<subagent-answer agent_key="…" label="…" status="…">`.
  const frames = [
    ...found.matchAll(
      /<subagent-answer agent_key="([^"]*)"(?: label="([^"]*)")? status="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/subagent-answer>/g,
    ),
  ];
  const lines = frames.map(
    ([, key, label, status, answer]) => `- ${key}${label ? ` "${label}"` : ""} — ${status}:\n${answer}`,
  );
  return `A subagent I started in the background has finished:\n\n${lines.join("\n").slice(0, 1500)}`;
}
