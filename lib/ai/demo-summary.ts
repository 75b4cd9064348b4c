// The demo model's summariser: a real extractive summary in the five sections, from the transcript it was given; and
// its answer to a durable-facts request: the person's own statements of a preference or a name.
import { SUMMARY_SECTIONS } from "../agent/compression.ts";
import { MAX_COMPRESSION_FACTS } from "../agent/compression-memory.ts";
import { memoryEntryFrom } from "./demo-workspace.ts";

const clip = (text: string, n: number) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);

export function extractiveSummary(request: string): string {
  const body = /<conversation>\n([\s\S]*)\n<\/conversation>/.exec(request)?.[1] ?? "";
  const lines = body.split("\n").filter(Boolean);
  // The transcript arrives with tags escaped (a hint reads "&lt;system-reminder&gt;…").
  const said = lines
    .filter((l) => l.startsWith("User: ") && !/(?:<|&lt;)system-reminder/.test(l))
    .map((l) => l.slice(6));
  const answers = lines.filter((l) => l.startsWith("Assistant: ")).map((l) => l.slice(11));
  const facts = lines.filter((l) => /Task \(id=\d+\)|\bresult:|(?:<|&lt;)current-time/.test(l)).slice(-5);
  const previous = /<previous-summary>\n([\s\S]*?)\n<\/previous-summary>/.exec(request)?.[1];
  const firstSentence = (text: string) => clip(text.split(/(?<=[.!?])\s/)[0] ?? text, 200);
  const sections: Record<(typeof SUMMARY_SECTIONS)[number], string> = {
    "Task Overview": said[0] ? `The person asked: “${clip(said[0], 200)}”` : "No request yet.",
    "Current State": answers.length
      ? `Last answer began: “${firstSentence(answers.at(-1)!)}”`
      : "Nothing answered yet.",
    "Important Discoveries": facts.length ? facts.map((f) => `- ${clip(f, 160)}`).join("\n") : "- None recorded.",
    "Next Steps": said.length
      ? `Continue from the person's latest request: “${clip(said.at(-1)!, 160)}”`
      : "Wait for the person.",
    "Context to Preserve":
      [
        ...(previous ? [`- Earlier summary: ${clip(previous.replace(/\s+/g, " "), 300)}`] : []),
        ...said.slice(-5).map((s) => `- Person: ${clip(s, 120)}`),
      ].join("\n") || "- None.",
  };
  return SUMMARY_SECTIONS.map((s) => `## ${s}\n${sections[s]}`).join("\n");
}

const DURABLE =
  /^(?:i (?:prefer|like|love|hate|always|never|use|work|live)\b|i'm\b|i am\b|my [\w -]{1,40}? (?:is|are)\b|we (?:decided|chose|agreed|use)\b)/i;

/** The durable facts of a request's lines, as a JSON list: what the person said of their preferences and names. */
export function demoFacts(request: string): string {
  const body = /<conversation>\n([\s\S]*)\n<\/conversation>/.exec(request)?.[1] ?? "";
  const facts = body
    .split("\n")
    .filter((l) => l.startsWith("Person: "))
    .map((l) => l.slice("Person: ".length).trim())
    .filter((said) => DURABLE.test(said))
    .map((said) => ({ fact: clip(memoryEntryFrom(said), 200), source: "person" }));
  return JSON.stringify(facts.slice(0, MAX_COMPRESSION_FACTS));
}
