// The evidence ledger of a compression: the exact identifiers found by code in the part being summarised — file
// paths, URLs, shell commands, numbers (with a unit, or standalone: a port, a count), dates, ids and task names — kept
// verbatim beside the summary, so the model can still quote them after a summariser paraphrased or dropped them. Pure: no model, no clock.
import { LEDGER_KINDS, type LedgerItem, type LedgerKind } from "../chat-message.ts";
import { countTokens } from "./token-count.ts";

/** A piece of text to extract from, with its place in the conversation (larger is newer). */
export type LedgerSource = { text: string; position: number };

const CONTEXT_CHARS = 80;
const VALUE_CHARS = 300;

const UNITS = [
  "%",
  "ms",
  "µs",
  "us",
  "ns",
  "s",
  "sec",
  "secs",
  "seconds?",
  "min",
  "mins",
  "minutes?",
  "h",
  "hrs?",
  "hours?",
  "days?",
  "weeks?",
  "months?",
  "years?",
  "[KMGTP]i?B",
  "bytes?",
  "bits?",
  "[kMG]?Hz",
  "tokens?",
  "px",
  "rem",
  "em",
  "°C",
  "°F",
  "km",
  "cm",
  "mm",
  "m",
  "kg",
  "g",
  "lbs?",
  "requests?",
  "req/s",
  "rps",
  "qps",
  "users?",
  "rows?",
  "cores?",
  "CPUs?",
  "vCPUs?",
  "x",
  "×",
  "USD",
  "EUR",
  "dollars?",
  "euros?",
  "files?",
  "lines?",
  "items?",
  "replicas?",
  "workers?",
];
const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;

// In order: each match is blanked out before the next pattern runs, so a path inside a command or a URL is not
// listed twice, and a date's digits are not read as numbers.
const PATTERNS: ReadonlyArray<readonly [LedgerKind, RegExp]> = [
  ["url", /\bhttps?:\/\/[^\s<>"'`)\]]+/g],
  ["command", /`([^`\n]{2,300})`/g],
  ["command", /^[ \t]*\$ ([^\n]{2,300})$/gm],
  ["date", /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2})?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])/g],
  ["id", /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi],
  ["path", /(?<![\w/.:-])(?:~|\.{1,2})?\/[\w.@+-]+(?:\/[\w.@+-]+)+\/?|(?<![\w/.:-])\/[\w@+-]+\.[A-Za-z0-9]{1,8}\b/g],
  ["path", /(?<![\w/.:@-])[\w@+-][\w.@+-]*(?:\/[\w.@+-]+)*\/[\w@+-][\w.@+-]*\.[A-Za-z0-9]{1,8}\b/g],
  [
    "number",
    new RegExp(String.raw`(?<![\w.,/-])(?:[$€£](?:${NUMBER})|(?:${NUMBER}) ?(?:${UNITS.join("|")}))(?![\w/])`, "g"),
  ],
  // A standalone number (a port, a count, an amount whose unit is not beside it): two digits or more, or a decimal;
  // not part of a fraction, a version, a time, a word or another identifier.
  ["number", new RegExp(String.raw`(?<![\w.,/:#-])(?=\d[\d,.]*\d)(?:${NUMBER})(?![\w/%]|[.,:]\d)`, "g")],
  ["id", /(?<![\w#])#\d{1,9}\b|\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b|\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g],
];

const CREATED_TASK = /Task \(id=(\d+)\) created successfully: ([^\n]+)/g;

/** A command is a backticked span that reads like one (a word and something after it, or a known tool name). */
function isCommand(text: string): boolean {
  return (
    /^\S+\s+\S/.test(text.trim()) ||
    /^(?:npm|npx|git|make|ls|cd|cat|node|python3?|pip|docker|kubectl|curl)$/.test(text.trim())
  );
}

/**
 * The words just before `index` in its clause and on its line, read in `text` where the identifiers found so far are
 * blanked out (so a neighbour's value is not taken for a description). Empty when nothing but a separator precedes.
 */
function contextAt(text: string, index: number): string {
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  // Clauses and what separates them, newest last; a short clause ("…, run `x`") takes the one before it too, but
  // never across a sentence end or an identifier.
  const pieces = text.slice(lineStart, index).split(/([.!?]\s+|[;,]\s+|\s{3,})/);
  let clause = pieces.pop() ?? "";
  while (
    pieces.length >= 2 &&
    clause.trim().split(/\s+/).filter(Boolean).length < 3 &&
    /^[;,]\s+$/.test(pieces.at(-1)!)
  ) {
    const separator = pieces.pop()!;
    clause = `${pieces.pop()}${separator}${clause}`;
  }
  const words = clause
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .slice(-8)
    .join(" ")
    .replace(/^[\s:;,—–-]+|[\s:;,(—–-]+$/g, "");
  return words.length > CONTEXT_CHARS ? `…${words.slice(-(CONTEXT_CHARS - 1))}` : words;
}

export type Found = { kind: LedgerKind; value: string; context: string; index: number };

/** Every identifier in one text, in the order of the patterns. */
export function findIdentifiers(text: string): Found[] {
  const found: Found[] = [];
  let rest = text;
  const blank = (start: number, length: number) => {
    rest = rest.slice(0, start) + " ".repeat(length) + rest.slice(start + length);
  };
  for (const m of text.matchAll(CREATED_TASK)) {
    found.push({ kind: "task", value: m[2]!.trim().slice(0, VALUE_CHARS), context: `task #${m[1]}`, index: m.index });
  }
  for (const [kind, pattern] of PATTERNS) {
    for (const m of [...rest.matchAll(pattern)]) {
      let value = (m[1] ?? m[0]).trim();
      if (kind === "command" && !isCommand(value)) continue;
      if (kind === "url" || kind === "path") value = value.replace(/[.,;:!?]+$/, "");
      if (!value || value.length > VALUE_CHARS) continue;
      found.push({ kind, value, context: "", index: m.index });
      blank(m.index, m[0].length);
    }
  }
  found.sort((a, b) => a.index - b.index);
  // Described once every identifier is blanked out, so that a neighbour's value is never part of a description.
  for (const item of found) if (item.kind !== "task") item.context = contextAt(rest, item.index);
  // An item of a list ("read /a, /b and /c") shares the description of the first one.
  for (let i = 1; i < found.length; i++) {
    const [before, item] = [found[i - 1]!, found[i]!];
    if (!item.context && !text.slice(before.index, item.index).includes("\n")) item.context = before.context;
  }
  return found;
}

const keyOf = (item: { kind: string; value: string }) => `${item.kind}\u0000${item.value}`;

/**
 * The items of the summarised part merged with the previous ledger (and its dropped items, which may come back when
 * referenced again), ranked most recent and most referenced first. Previous items count as older than any new one.
 */
export function collectLedger(
  sources: readonly LedgerSource[],
  previous: readonly LedgerItem[] = [],
): Array<LedgerItem & { rank: number }> {
  const items = new Map<string, LedgerItem & { last: number }>();
  previous.forEach((item, i) => {
    const known = items.get(keyOf(item));
    // An item both pinned and listed as dropped is one item, pinned.
    if (known) known.pinned ||= item.pinned;
    // The previous ledger is ranked best first: its best item is the newest of the old ones.
    else items.set(keyOf(item), { ...item, last: -1 - i / Math.max(1, previous.length) });
  });
  const newest = Math.max(1, ...sources.map((s) => s.position));
  for (const source of sources) {
    for (const found of findIdentifiers(source.text)) {
      const key = keyOf(found);
      const known = items.get(key);
      const last = source.position / newest;
      if (known) {
        known.refs++;
        if (last >= known.last) {
          known.last = last;
          if (found.context) known.context = found.context;
        }
      } else {
        items.set(key, { kind: found.kind, value: found.value, context: found.context, refs: 1, last });
      }
    }
  }
  return [...items.values()]
    .map(({ last, ...item }) => ({ ...item, rank: (item.pinned ? 100 : 0) + last + 0.25 * (item.refs - 1) }))
    .sort((a, b) => b.rank - a.rank);
}

/** A stored ledger item read defensively (agent state and requests are JSON). */
export function parseLedgerItems(value: unknown, max = 500): LedgerItem[] {
  if (!Array.isArray(value)) return [];
  const items: LedgerItem[] = [];
  for (const raw of value.slice(0, max)) {
    const v = raw as Partial<LedgerItem> | null;
    if (
      !v ||
      !(LEDGER_KINDS as readonly string[]).includes(v.kind as string) ||
      typeof v.value !== "string" ||
      !v.value
    )
      continue;
    items.push({
      kind: v.kind as LedgerKind,
      value: v.value.slice(0, VALUE_CHARS),
      context: typeof v.context === "string" ? v.context.slice(0, CONTEXT_CHARS) : "",
      refs: Number.isSafeInteger(v.refs) && (v.refs as number) > 0 ? (v.refs as number) : 1,
      ...(v.pinned === true ? { pinned: true } : {}),
    });
  }
  return items;
}

export function ledgerLine(item: LedgerItem): string {
  const value = item.kind === "command" ? `\`${item.value}\`` : item.value;
  return `- ${item.kind}: ${value}${item.context ? ` — ${item.context}` : ""}`;
}

export const LEDGER_HEADING = "## Evidence ledger";
const LEDGER_INTRO =
  "Exact identifiers from the summarised messages, verbatim (most recent and most referenced first):";

/** The ledger as it follows the summary in the model's input; nothing when it is empty. */
export function renderLedger(items: readonly LedgerItem[]): string {
  if (!items.length) return "";
  return [LEDGER_HEADING, LEDGER_INTRO, ...items.map(ledgerLine)].join("\n");
}

/** Kept items are listed for the chip; dropped beyond this are forgotten. */
export const DROPPED_KEPT = 100;
/** Pinned items the ledger keeps at most: pins, kept from compression to compression, may not grow it without end. */
export const MAX_PINNED = 50;

/**
 * Splits ranked items into the ledger and the dropped ones (best first), within `maxTokens`: the pinned items first,
 * the first MAX_PINNED of them that fit (collectLedger ranks the newest pin first); a pin beyond those loses its pin
 * and ranks behind every other item (it is an old one). Then the others that fit, in their order.
 */
export function boundLedger(ranked: ReadonlyArray<LedgerItem & { rank?: number }>, maxTokens: number) {
  const items = ranked.map(({ rank: _rank, ...item }) => item);
  let used = countTokens(`${LEDGER_HEADING}\n${LEDGER_INTRO}\n`);
  const fits = (item: LedgerItem) => {
    const tokens = countTokens(ledgerLine(item)) + 1;
    if (used + tokens > maxTokens) return false;
    used += tokens;
    return true;
  };
  const keptPins = new Set<LedgerItem>();
  const unpinned: LedgerItem[] = [];
  for (const item of items) {
    if (!item.pinned) continue;
    if (keptPins.size < MAX_PINNED && fits(item)) keptPins.add(item);
    else unpinned.push(withoutPin(item));
  }
  // In the order given, the pins that lost theirs last: the ledger keeps the given order of what it keeps.
  const order = [...items.filter((item) => !item.pinned || keptPins.has(item)), ...unpinned];
  const kept = new Set([...keptPins, ...order.filter((item) => !keptPins.has(item) && fits(item))]);
  const ledger = order.filter((item) => kept.has(item));
  const dropped = order.filter((item) => !kept.has(item)).slice(0, DROPPED_KEPT);
  return { ledger, dropped };
}

const withoutPin = ({ pinned: _pinned, ...item }: LedgerItem): LedgerItem => item;

/** The ledger's share of the window: it goes with the summary, whose reserve is of the same size. */
export function ledgerBudget(contextWindow: number): number {
  return Math.min(2048, Math.floor(contextWindow * 0.15));
}
