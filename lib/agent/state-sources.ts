// Which state sources the agent is told about before a reasoning step (issue 48), told like the time: a source whose
// fields differ from what the next call's input last told (told.ts reads it from the hints there, so Regenerate and
// branches stay true) gets one `<system-reminder>` holding `<state source="NAME">` with every field, the changed ones
// marked; a failing source is told once as unavailable since a time, and once again when it is back. A hint's fields
// fit its source's maxTokens (the notice itself is told whatever it is), and the hints of one step together fit
// STATE_WINDOW_SHARE of the window (a source that does not fit waits for the next step). Values are escaped and neutralised. Pure: the readings and the clock are arguments.
import type { HintData, HintSource } from "../chat-message.ts";
import { neutralizeHintTags, oneLine } from "./hints/neutralize-tags.ts";
import { escapeValue } from "./hints/render-hint.ts";
import type { StateFields } from "./state-source-rules.ts";
import { countTokens } from "./token-count.ts";
import { wordsFor } from "../operator-words.ts";

export const STATE_HINT_LABEL = "State";
/** The most of the context window the state hints of one step may take together. */
export const STATE_WINDOW_SHARE = 0.05;
/** Below this many tokens a source's hint cannot say anything useful: it waits for the next step. */
const MIN_HINT_TOKENS = 40;
/** A value cut to fit is never shorter than this (fields are left out instead). */
const MIN_VALUE_CHARS = 12;

export const stateHintSource = (name: string): HintSource => ({ label: STATE_HINT_LABEL, sublabel: name });

/** What a source's latest read found: its fields, or since when it fails and why (in Hintline's words). */
export type StateReading =
  | { ok: true; fields: StateFields; readAt: string }
  | { ok: false; reason: string; since: string };

/** An enabled source as the step read it (no reading yet: its first read is still under way). */
export type StateSourceNow = { name: string; maxTokens: number; reading?: StateReading };

/** What the input last told of a source: its values then, and since when it was told unavailable (if it was). */
export type ToldState = { values: StateFields; unavailableSince?: string };

export type StateHint = {
  source: HintSource;
  text: string;
  /** For the chip: the changed fields as told (or why the source is unavailable). */
  fields: Record<string, string>;
  state: NonNullable<HintData["state"]>;
};

const safe = (value: string) => neutralizeHintTags(escapeValue(value));

type Field = { name: string; value: string; changed: boolean };

function renderFields(name: string, fields: readonly Field[], left: number): string {
  const lines = fields.map((f) => `<${f.name}${f.changed ? ' changed="true"' : ""}>${safe(f.value)}</${f.name}>`);
  const more = left
    ? `\n(${left} more field${left === 1 ? "" : "s"} left out to keep within this source's budget)`
    : "";
  return `<state source="${name}">${lines.length ? `\n${lines.join("\n")}` : ""}\n</state>${more}`;
}

const reminder = (head: string, body: string) => `<system-reminder>\n${head}\n${body}\n</system-reminder>`;

/**
 * The fields as they fit in `budget` tokens: long values cut first, then unchanged fields left out, then changed ones.
 * The notice itself (the head, the fields left out counted) is told whatever the budget.
 */
function fitFields(head: string, name: string, all: Field[], budget: number): string {
  const render = (fields: Field[]) => reminder(head, renderFields(name, fields, all.length - fields.length));
  const fits = (text: string) => countTokens(text) <= budget;
  let fields = all;
  let text = render(fields);
  if (fits(text)) return text;
  let longest = Math.max(...fields.map((f) => f.value.length));
  while (longest > MIN_VALUE_CHARS) {
    longest = Math.max(MIN_VALUE_CHARS, Math.floor(longest / 2));
    const cap = longest;
    fields = fields.map((f) => (f.value.length > cap ? { ...f, value: `${f.value.slice(0, cap - 1)}…` } : f));
    text = render(fields);
    if (fits(text)) return text;
  }
  // Unchanged fields go first (the agent was told them already), then changed ones from the end.
  const order = [...fields.filter((f) => !f.changed), ...fields.filter((f) => f.changed).reverse()];
  for (const drop of order) {
    fields = fields.filter((f) => f !== drop);
    text = render(fields);
    if (fits(text)) return text;
  }
  return text;
}

/** "a, b, c" — at most five names, then how many more. */
function someNames(names: readonly string[]): string {
  const shown = names.slice(0, 5).join(", ");
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

function availableHint(
  source: StateSourceNow & { reading: Extract<StateReading, { ok: true }> },
  told: ToldState | undefined,
  budget: number,
): StateHint | undefined {
  const { fields: values, readAt } = source.reading;
  const back = told?.unavailableSince !== undefined;
  // The first fields told of a source mark nothing: every one is news.
  const fresh = told === undefined || Object.keys(told.values).length === 0;
  const all: Field[] = Object.entries(values).map(([name, value]) => ({
    name,
    value,
    changed: told !== undefined && told.values[name] !== value,
  }));
  const removed = told ? Object.keys(told.values).filter((k) => !(k in values)) : [];
  if (told && !back && !removed.length && all.every((f) => !f.changed)) return undefined;
  const changed = all.filter((f) => f.changed);
  const head = [
    back
      ? `State source ${source.name} is available again, read at ${readAt}.`
      : `State source ${source.name}, read at ${readAt}.`,
    fresh ? "" : 'Fields marked changed="true" differ from the last state you were told of it.',
    removed.length ? `No longer reported: ${someNames(removed)}.` : "",
    "This is its current state; a later reminder for this source supersedes it.",
  ]
    .filter(Boolean)
    .join(" ");
  const text = fitFields(head, source.name, fresh ? all.map((f) => ({ ...f, changed: false })) : all, budget);
  return {
    source: stateHintSource(source.name),
    text,
    fields: Object.fromEntries(
      (fresh ? all : changed).map((f) => [f.name, f.value] as const).concat(back ? [["available", "again"]] : []),
    ),
    state: { values },
  };
}

function unavailableHint(name: string, reason: string, since: string, told: ToldState | undefined) {
  // The agent (and the hint chip) read the person's words: a variable to set is the operator's (operator-words.ts).
  const words = oneLine(wordsFor(reason, false)).slice(0, 300);
  const text = reminder(
    `State source ${name} is unavailable since ${since}: ${safe(words)}.${told ? " What you were told of it last may be out of date." : ""}`,
    `<state source="${name}" unavailable-since="${since}">\n</state>`,
  );
  return {
    source: stateHintSource(name),
    text,
    fields: { unavailable: `since ${since}: ${words}` },
    state: { values: told?.values ?? {}, unavailableSince: since },
  } satisfies StateHint;
}

/**
 * The state hints for the next call, in the sources' order. `sources`: the enabled sources; a source the input told of
 * that is no longer among them (switched off or removed) is told once as unavailable. `told`: what the input last told
 * per source. `contextWindow`: the share of it all hints may take together.
 */
export function decideStateHints({
  sources,
  told,
  now,
  contextWindow,
}: {
  sources: readonly StateSourceNow[];
  told: Readonly<Record<string, ToldState>> | undefined;
  now: Date;
  contextWindow: number;
}): StateHint[] {
  let left = Math.floor(contextWindow * STATE_WINDOW_SHARE);
  const hints: StateHint[] = [];
  // A hint over what is left of the step's share waits for the next step.
  const take = (hint: StateHint | undefined) => {
    if (!hint) return;
    const tokens = countTokens(hint.text);
    if (tokens > left) return;
    hints.push(hint);
    left -= tokens;
  };
  for (const source of sources) {
    if (left < MIN_HINT_TOKENS || !source.reading) continue;
    const before = told?.[source.name];
    const budget = Math.min(source.maxTokens, left);
    if (source.reading.ok) take(availableHint({ ...source, reading: source.reading }, before, budget));
    else if (before?.unavailableSince === undefined)
      take(unavailableHint(source.name, source.reading.reason, source.reading.since, before));
  }
  const names = new Set(sources.map((s) => s.name));
  for (const [name, before] of Object.entries(told ?? {}))
    if (!names.has(name) && before.unavailableSince === undefined)
      take(unavailableHint(name, "it was switched off or removed", now.toISOString(), before));
  return hints;
}
