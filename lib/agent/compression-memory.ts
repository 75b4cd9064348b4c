// Memory that outlives a compression: at each compression one small model call proposes at most five durable facts
// (preferences, decisions, names) from the part being summarised, and they join the workspace's memory as the
// system's. Pure: the request's text, and the answer read defensively — a provider may send junk, too many, too long,
// line separators or forged tags; what comes out is at most five distinct, escaped, one-line facts.
import { neutralizeHintTags, splitLines } from "./hints/neutralize-tags.ts";
import { normalizeMemoryEntry } from "./workspace-text.ts";

export const MAX_COMPRESSION_FACTS = 5;
/** A fact longer than this is cut (with "…"): memory entries are short lines. */
export const MAX_FACT_CHARS = 300;

export const MEMORY_FACTS_MARKER = "List the durable facts from the conversation below";

export const MEMORY_FACTS_INSTRUCTIONS =
  "You pick out the few facts worth remembering across conversations. You answer with a JSON list of strings only.";

/** The request: at most five durable facts, one line each, as a JSON list (an empty list when there are none). */
export function memoryFactsPrompt(transcriptText: string): string {
  return [
    `${MEMORY_FACTS_MARKER} that are worth keeping in a long-term memory shared by every conversation of this workspace:`,
    `the person's stated preferences, decisions, names of people, projects and things, and background facts about them. At most ${MAX_COMPRESSION_FACTS} facts,`,
    'each one short self-contained line in the third person (like "Prefers metric units"). Leave out what only mattered in this conversation, chit-chat and anything uncertain.',
    'Answer with a JSON list of strings and nothing else, like ["Prefers metric units"]; answer [] when there is nothing durable.',
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

// Line breaks of every kind, C0/C1 controls (NUL among them): a memory entry is one line of plain text.
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;
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

/** The facts an answer proposes: at most five distinct ones, each a clean memory line. */
export function parseMemoryFacts(answer: string): string[] {
  const text = answer.trim();
  if (!text) return [];
  const list = jsonList(text);
  let raw: Iterable<string>;
  if (list) raw = list.filter((item): item is string => typeof item === "string");
  else {
    const lines = splitLines(text);
    // With bullets, only the bulleted lines are facts ("Here they are:" is not one).
    const bulleted = lines.some((l) => BULLET.test(l));
    raw = (function* () {
      for (const line of lines) if (!bulleted || BULLET.test(line)) yield line.replace(BULLET, "");
    })();
  }
  const facts: string[] = [];
  const seen = new Set<string>();
  for (const item of raw) {
    const fact = cleanFact(item);
    const key = normalizeMemoryEntry(fact);
    if (!fact || seen.has(key)) continue;
    seen.add(key);
    facts.push(fact);
    if (facts.length === MAX_COMPRESSION_FACTS) break;
  }
  return facts;
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
