// The demo model's subagent behaviours: "delegate: <task>" → AgentSpawn of general-purpose, whose answer comes back in
// the tool result; "delegate in background: <task>" → AgentSpawn with timeout_seconds 0, whose answer comes later as a
// System · Subagents reminder. As the child (its system prompt holds "# Agent: <id>"), it answers a task
// deterministically.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import type { DemoToolCall, ReplySegment } from "./demo-tasks.ts";
import { withoutCallCount } from "../agent/tool-result.ts";

const DELEGATE = /^delegate(\s+in\s+(?:the\s+)?background)?\s*:\s*(.+)$/is;

type Decision = { text: string; calls?: DemoToolCall[] };

const labelOf = (task: string) => task.replace(/\s+/g, " ").trim().split(" ").slice(0, 4).join(" ").slice(0, 60);

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

/** As a subagent (its prompt names its agent): a fixed report on its task; undefined for any other conversation. */
export function childAnswer(prompt: LanguageModelV4Prompt, segment: ReplySegment): string | undefined {
  const agent = /^# Agent: ([a-z0-9-]+)$/m.exec(systemText(prompt))?.[1];
  if (!agent) return undefined;
  const task = segment.personText.replace(/\s+/g, " ").trim();
  const words = task.split(" ").filter(Boolean).length;
  return `Report from ${agent}: I looked into “${task.slice(0, 300)}” (${words} word${words === 1 ? "" : "s"}) and found what was asked. Done.`;
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
