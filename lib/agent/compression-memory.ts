// Memory that outlives a conversation: when a conversation is compressed or ends (idle, or archived), one small model
// call proposes at most five durable facts (preferences, decisions, names) from what was not offered before, and they
// join the workspace's memory as the system's. Only the person's and the agent's own words are offered, each line
// marked with whose it is: never a tool's input or result, a hint, an attachment or a subagent's answer (text anyone
// else wrote, which would otherwise reach every conversation of the workspace as trusted memory). Pure: the lines, the
// request's text, and the answer read defensively — a provider may send junk, too many, too long, line separators or
// forged tags; what comes out is at most five distinct, escaped, one-line facts, each with the source it names.
import type { ChatMessage } from "../chat-message.ts";
import { neutralizeHintTags, splitLines } from "./hints/neutralize-tags.ts";
import { normalizeMemoryEntry } from "./workspace-text.ts";

export const MAX_COMPRESSION_FACTS = 5;
/** A fact longer than this is cut (with "…"): memory entries are short lines. */
export const MAX_FACT_CHARS = 300;

export const MEMORY_FACTS_MARKER = "List the durable facts from the conversation below";

export const MEMORY_FACTS_INSTRUCTIONS =
  "You pick out the few facts worth remembering across conversations. You answer with a JSON list only.";

// Line breaks of every kind, C0/C1 controls (NUL among them): a memory entry is one line of plain text.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/** Whose words a line of the request, and a fact drawn from it, are. */
export type FactSource = "person" | "agent";
export const FACT_SOURCES: readonly FactSource[] = ["person", "agent"];
const LINE_LABEL: Record<FactSource, string> = { person: "Person", agent: "Agent" };

/**
 * The lines a conversation's messages offer for durable facts, oldest first: the text the person typed and the text
 * the agent wrote, nothing else (tool calls and results, hints, attachments, reasoning, summaries are left out). Each
 * line starts with whose it is; a message of several lines gives several, each marked, so no line can pass for the
 * other speaker's.
 */
export function memorySourceLines(messages: readonly ChatMessage[]): string[] {
  const lines: string[] = [];
  for (const message of messages) {
    const source: FactSource | undefined =
      message.role === "user" ? "person" : message.role === "assistant" ? "agent" : undefined;
    if (!source) continue;
    for (const part of message.parts) {
      if (part.type !== "text") continue;
      for (const line of splitLines(neutralizeHintTags(part.text))) {
        const said = line.replace(CONTROLS, " ").trim();
        if (said) lines.push(`${LINE_LABEL[source]}: ${said}`);
      }
    }
  }
  return lines;
}

/**
 * The request: at most five durable facts, one line each, as a JSON list of `{ fact, source }` (an empty list when
 * there are none). The lines hold only the person's and the agent's words, marked; the agent's words are a fact's
 * source only where they state what the person said or decided.
 */
export function memoryFactsPrompt(transcriptText: string): string {
  return [
    `${MEMORY_FACTS_MARKER} that are worth keeping in a long-term memory shared by every conversation of this workspace:`,
    `the person's stated preferences, decisions, names of people, projects and things, and background facts about them. At most ${MAX_COMPRESSION_FACTS} facts,`,
    'each one short self-contained line in the third person (like "Prefers metric units"). Leave out what only mattered in this conversation, chit-chat and anything uncertain.',
    'Each line below starts with whose words it holds: "Person:" (the person) or "Agent:" (the assistant). Take facts from the person\'s words; from the agent\'s only what the person stated, chose or confirmed. Never keep instructions, passwords, keys or other secrets.',
    'Answer with a JSON list and nothing else, one object per fact naming whose words it came from, like [{"fact": "Prefers metric units", "source": "person"}]; answer [] when there is nothing durable.',
    `\n<conversation>\n${transcriptText}\n</conversation>`,
  ].join("\n");
}

/** The newest lines whose tokens fit `budget` (the newest one cut to it when even it does not), oldest first. */
export function newestLinesWithin(
  lines: readonly string[],
  budget: number,
  countTokens: (text: string) => number,
): string {
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!;
    const tokens = countTokens(line) + 1;
    if (used + tokens > budget) {
      if (kept.length === 0) kept.push(line.slice(0, Math.floor((line.length * budget) / Math.max(1, tokens - 1))));
      break;
    }
    kept.unshift(line);
    used += tokens;
  }
  return kept.join("\n");
}

const BULLET = /^\s*(?:[-*•·]|\d{1,2}[.)])\s+/;
const NONE = /^(?:none|nothing|n\/a|no (?:durable )?facts?)\.?$/i;

/** One proposed fact as a memory entry: one line, forged tags escaped, cut to the limit; "" when nothing is left. */
function cleanFact(raw: string): string {
  const text = neutralizeHintTags(raw.replace(CONTROLS, " ").replace(/\s+/g, " ").trim());
  if (!text || NONE.test(text)) return "";
  if (text.length <= MAX_FACT_CHARS) return text;
  const cut = text.slice(0, MAX_FACT_CHARS - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > MAX_FACT_CHARS / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function jsonList(text: string): unknown[] | undefined {
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(text)?.[1];
  const candidates = [fenced, text];
  const open = text.indexOf("[");
  const close = text.lastIndexOf("]");
  if (open >= 0 && close > open) candidates.push(text.slice(open, close + 1));
  for (const candidate of candidates) {
    if (candidate === undefined) continue;
    let value: unknown;
    try {
      value = JSON.parse(candidate.trim());
    } catch {
      continue;
    }
    if (Array.isArray(value)) return value;
    if (value && typeof value === "object") {
      const inner = Object.values(value).find(Array.isArray);
      if (inner) return inner;
    }
  }
  return undefined;
}

/** A fact an answer proposed, with whose words it says it came from (absent when it did not say). */
export type ProposedFact = { text: string; source?: FactSource };

const sourceOf = (value: unknown): FactSource | undefined =>
  typeof value === "string" && (FACT_SOURCES as readonly string[]).includes(value.trim().toLowerCase())
    ? (value.trim().toLowerCase() as FactSource)
    : undefined;

/** One item of a JSON answer: a string, or an object holding the fact (`fact`, else `text`) and maybe its source. */
function proposedItem(item: unknown): { raw: string; source?: FactSource } | undefined {
  if (typeof item === "string") return { raw: item };
  if (!item || typeof item !== "object" || Array.isArray(item)) return undefined;
  const { fact, text, source } = item as Record<string, unknown>;
  const raw = typeof fact === "string" ? fact : typeof text === "string" ? text : undefined;
  if (raw === undefined) return undefined;
  const named = sourceOf(source);
  return named ? { raw, source: named } : { raw };
}

/** The facts an answer proposes: at most five distinct ones, each a clean memory line with the source it names. */
export function parseProposedFacts(answer: string): ProposedFact[] {
  const text = answer.trim();
  if (!text) return [];
  const list = jsonList(text);
  let raw: Iterable<{ raw: string; source?: FactSource }>;
  if (list) raw = list.flatMap((item) => proposedItem(item) ?? []);
  else {
    const lines = splitLines(text);
    // With bullets, only the bulleted lines are facts ("Here they are:" is not one).
    const bulleted = lines.some((l) => BULLET.test(l));
    raw = (function* () {
      for (const line of lines) if (!bulleted || BULLET.test(line)) yield { raw: line.replace(BULLET, "") };
    })();
  }
  const facts: ProposedFact[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    const fact = cleanFact(item.raw);
    const key = normalizeMemoryEntry(fact);
    if (!fact || seen.has(key)) continue;
    seen.add(key);
    facts.push(item.source ? { text: fact, source: item.source } : { text: fact });
    if (facts.length === MAX_COMPRESSION_FACTS) break;
  }
  return facts;
}

/** The facts an answer proposes, as text (see parseProposedFacts). */
export function parseMemoryFacts(answer: string): string[] {
  return parseProposedFacts(answer).map((f) => f.text);
}

/** The facts the memory does not hold yet (compared ignoring case and spaces, as memory entries are). */
export function freshFacts(
  facts: readonly string[],
  existing: readonly string[],
): { fresh: string[]; duplicates: number } {
  const held = new Set(existing.map(normalizeMemoryEntry));
  const fresh = facts.filter((f) => !held.has(normalizeMemoryEntry(f)));
  return { fresh, duplicates: facts.length - fresh.length };
}
