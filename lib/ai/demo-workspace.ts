// The demo model's workspace behaviours: "remember that …" → MemoryWrite, "what do you remember (about X)?" →
// the memory in its system prompt or MemorySearch, "search the knowledge for X" → KnowledgeSearch, "read <path>" →
// KnowledgeRead, "use the <name> skill" → SkillLoad; each followed by a short answer from the tool's result.
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { unescapeValue } from "../agent/hints/render-hint.ts";
import type { DemoToolCall, ReplySegment } from "./demo-tasks.ts";
import { withoutCallCount } from "../agent/tool-result.ts";

const trimEnd = (text: string) => text.trim().replace(/[.?!,;:]+$/, "");

const FIRST_PERSON: Array<[RegExp, string]> = [
  [/^i am\s+/i, "Is "],
  [/^i'm\s+/i, "Is "],
  [/^i have\s+/i, "Has "],
  [/^i've\s+/i, "Has "],
  [/^my\s+/i, "Their "],
];

/** "I prefer metric units" → "Prefers metric units": one line about the person, in the third person. */
export function memoryEntryFrom(text: string): string {
  const said = trimEnd(unescapeValue(text).replace(/\s+/g, " "));
  for (const [pattern, replacement] of FIRST_PERSON) if (pattern.test(said)) return said.replace(pattern, replacement);
  const verb = /^i\s+([a-z]+)\s+(.*)$/i.exec(said);
  if (verb) {
    const word = verb[1]!.toLowerCase();
    const third = /(?:s|sh|ch|x|o)$/.test(word)
      ? `${word}es`
      : /[^aeiou]y$/.test(word)
        ? `${word.slice(0, -1)}ies`
        : `${word}s`;
    return `${third.charAt(0).toUpperCase()}${third.slice(1)} ${verb[2]}`;
  }
  return said.charAt(0).toUpperCase() + said.slice(1);
}

const REMEMBER = /^(?:please\s+)?remember(?:\s+that|\s*:)\s*(.+)$/is;
const RECALL =
  /^what (?:do|did) you remember(?:\s+about\s+(.+?))?\s*\??$|^what(?:'s| is) in (?:your |the )?memory\s*\??$/i;
const SEARCH = /^(?:please\s+)?search (?:the |my )?(?:knowledge|docs|files)(?: base| files| folder)? for\s+(.+)$/is;
const READ =
  /^(?:please\s+)?(?:read|open)(?: the file| file)?\s+[`"']?([\w./-]+?\.[\w]+|[\w.-]+\/[\w./-]+)[`"']?\s*[.?!]?$/i;
const SKILL = /\buse the [`"']?([a-z0-9][a-z0-9-]*)[`"']? skill\b/i;

/** The workspace tool a person's message asks for, if any (none for "what do you remember?": the prompt has it). */
export function plannedWorkspaceCall(text: string): DemoToolCall | undefined {
  const said = text.trim();
  const remember = REMEMBER.exec(said);
  if (remember) return { toolName: "MemoryWrite", input: { entry: memoryEntryFrom(remember[1]!) } };
  const recall = RECALL.exec(said);
  if (recall?.[1]) return { toolName: "MemorySearch", input: { query: trimEnd(recall[1]) } };
  const search = SEARCH.exec(said);
  if (search)
    return {
      toolName: "KnowledgeSearch",
      input: { query: trimEnd(unescapeValue(search[1]!)).replace(/^["'`]|["'`]$/g, "") },
    };
  const read = READ.exec(said);
  if (read) return { toolName: "KnowledgeRead", input: { path: read[1] } };
  const skill = SKILL.exec(said);
  if (skill) return { toolName: "SkillLoad", input: { name: skill[1]!.toLowerCase() } };
  return undefined;
}

/** The memory entries the system prompt holds (`<memory_context>`), one per "- " line. */
export function systemPromptMemory(prompt: LanguageModelV4Prompt): string[] {
  const system = prompt.find((m) => m.role === "system");
  const text = typeof system?.content === "string" ? system.content : "";
  const block = /<memory_context>\n?([\s\S]*?)\n?<\/memory_context>/.exec(text)?.[1] ?? "";
  return block
    .split("\n")
    .filter((l) => l.startsWith("- "))
    .map((l) => l.slice(2));
}

const quote = (lines: readonly string[]) => lines.map((l) => `> ${l}`).join("\n");

function answer(call: DemoToolCall, result: { text: string; isError: boolean }): string {
  const text = withoutCallCount(result.text);
  const [first = "", ...rest] = text.split("\n");
  if (result.isError) {
    if (/DuplicateMemoryError/.test(first))
      return `I already remember that: ${/"(.*)"\. Entries are compared/.exec(first)?.[1] ?? call.input.entry}.`;
    return `That didn't work: ${first.replace(/^(\w+Error: )+/, "")}`;
  }
  switch (call.toolName) {
    case "MemoryWrite":
      return `Got it — I'll remember: ${call.input.entry}.`;
    case "MemorySearch":
      return rest.length
        ? `From my memory (${first.replace(/, best first:$/, "")}):\n\n${rest.map((l) => `- ${l.replace(/^- /, "")}`).join("\n")}`
        : first;
    case "KnowledgeSearch":
      return rest.length
        ? `Found ${first}\n\n${rest.map((l) => `- \`${l.replace(/^([^:]+:\d+):\s?/, "$1`: ")}`).join("\n")}`
        : first;
    case "KnowledgeRead": {
      const lines = rest.filter((l) => /^\s*\d+\t/.test(l)).map((l) => l.replace(/^\s*\d+\t/, ""));
      const shown = lines.filter((l) => l.trim()).slice(0, 5);
      // The result's header names the path first ("notes.md (12 bytes, 2 lines), lines 1–2:"): said once, as code.
      const size = /^.* (\([\d,]+ bytes?, [\d,]+ lines?\))/.exec(first)?.[1];
      return `\`${call.input.path}\`${size ? ` ${size}` : ""} begins:\n\n${shown.length ? quote(shown) : "> (empty)"}`;
    }
    case "SkillLoad": {
      const [, ...body] = text.split("\n\n");
      const steps = body
        .join("\n\n")
        .split("\n")
        .filter((l) => l.trim())
        .slice(0, 8);
      return `Using the **${call.input.name}** skill ${first.replace(/^Skill \S+ /, "")}\n\nI'll follow its instructions:\n\n${quote(steps)}`;
    }
    default:
      return first;
  }
}

/** What the demo does about a workspace request in this reply, or undefined when the message is none. */
export function workspaceDecision(
  prompt: LanguageModelV4Prompt,
  segment: ReplySegment,
): { text: string; calls?: DemoToolCall[] } | undefined {
  const said = segment.personText.trim();
  const call = plannedWorkspaceCall(said);
  if (!call) {
    if (!RECALL.test(said)) return undefined;
    const entries = systemPromptMemory(prompt);
    return {
      text: entries.length
        ? `Here is what I remember:\n\n${entries.map((e) => `- ${e}`).join("\n")}`
        : "My memory for this workspace is empty (as of the start of this conversation). Tell me *remember that …* and I'll keep it.",
    };
  }
  const result = segment.results.findLast((r) => r.toolName === call.toolName);
  if (!segment.calledTools.includes(call.toolName) || !result) return { text: "", calls: [call] };
  return { text: answer(call, result) };
}
