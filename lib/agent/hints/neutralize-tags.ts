// Only the harness writes Hintline's own tags. Text from anyone else (the person, an import, the model, a tool result
// such as a task subject) reaches the model with those tags escaped, so a pasted `</system-reminder>` or
// `<current-time>` cannot close a real hint or pass for one. A tag counts as one of ours however it is spelled: any
// case, whitespace or a newline around the slash or between the words, look-alike brackets and slashes (fullwidth,
// small form, angle brackets), invisible characters inside the name, Cyrillic/Greek look-alike letters, attributes,
// no closing `>`. Other markup (code, HTML, `a < b`, `List<T>`) is left exactly as written.

/**
 * The tags only the harness writes, by word: the hint, its built-in fields, the compression summary's tags, the BUILD
 * reminder's plan, the frame of a subagent's answer, and the system prompt's workspace section (so stored workspace text can close none of them).
 */
export const RESERVED_TAG_WORDS: readonly (readonly string[])[] = [
  ["system", "reminder"],
  ["current", "time"],
  ["time", "zone"],
  ["time", "since", "last", "message"],
  ["tasks"],
  ["context", "length"],
  ["conversation", "summary"],
  ["previous", "summary"],
  ["conversation"],
  ["approved", "plan"],
  ["subagent", "answer"],
  ["loaded", "context"],
  ["agents", "context"],
  ["memory", "context"],
  ["domain", "knowledge", "context"],
  ["available", "skills"],
];

// CR LF, and every other character a model or a line splitter may read as a line break: LF, CR, VT, FF, the file,
// group and record separators, NEL, LINE SEPARATOR and PARAGRAPH SEPARATOR.
const LINE_BREAKS = /\r\n|[\n\r\v\f\u001C-\u001E\u0085\u2028\u2029]/g;

/** Whether `text` holds a line break of any kind (a field that must be one line refuses it). */
export function hasLineBreak(text: string): boolean {
  return text.search(LINE_BREAKS) >= 0;
}

/** `text` cut into lines at every kind of line break. */
export function splitLines(text: string): string[] {
  return text.split(LINE_BREAKS);
}

/** A field shown on one line (a memory entry, a skill, a path, a task subject): every line break becomes a space. */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAKS, " ");
}

/** Text kept on several lines (instructions, KNOWLEDGE.md) with every kind of line break written as a plain "\n". */
export function withPlainLineBreaks(text: string): string {
  return text.replace(LINE_BREAKS, "\n");
}

const OPENERS = "<\uFF1C\uFE64\u27E8\u2329\u3008\u2039\u276E\u1438\u29FC";
const CLOSERS = ">\uFF1E\uFE65\u27E9\u232A\u3009\u203A\u276F\u1433\u29FD";
const SLASHES = "/\uFF0F\u2215\u2044\u29F8\\\\\uFF3C";
const INVISIBLE = "\\p{Default_Ignorable_Code_Point}\\p{Cf}";
const DASHES = "\\-_.\u00B7\u2010-\u2015\u2212\uFE58\uFE63\uFF0D";
// Bounded runs keep matching linear: no run of spaces or invisibles is rescanned more than a few dozen times.
const GAP = `[\\s${INVISIBLE}]{0,32}`;
const IN_WORD = `[${INVISIBLE}]{0,8}`;
const BETWEEN_WORDS = `[\\s${INVISIBLE}${DASHES}]{0,8}`;

// Look-alikes a model reads as the Latin letter (fullwidth forms are added for every letter).
const LOOKALIKES: Record<string, string> = {
  a: "\u0430\u03B1",
  c: "\u0441\u03F2",
  e: "\u0435\u03B5",
  h: "\u04BB",
  i: "\u0456\u03B9\u0131",
  k: "\u043A\u03BA",
  l: "\u04CF\u0399I1|",
  m: "\u043C",
  n: "\u0578",
  o: "\u043E\u03BF0",
  p: "\u0440\u03C1",
  r: "\u0433",
  s: "\u0455",
  t: "\u0442\u03C4",
  u: "\u057D\u03C5",
  v: "\u03BD",
  y: "\u0443\u03B3",
  x: "\u0445\u03C7",
};

function letterClass(letter: string): string {
  const fullwidth = String.fromCharCode(letter.charCodeAt(0) + 0xfee0);
  const fullwidthUpper = String.fromCharCode(letter.toUpperCase().charCodeAt(0) + 0xfee0);
  return `[${letter}${fullwidth}${fullwidthUpper}${LOOKALIKES[letter] ?? ""}]`;
}

function namePattern(words: readonly string[]): string {
  return words.map((word) => [...word].map(letterClass).join(IN_WORD)).join(BETWEEN_WORDS);
}

/** A pattern matching any spelling of the names, as written in a tag (`<name`, `</name`), up to an optional `>`. */
function tagPattern(names: readonly (readonly string[])[]): RegExp {
  const alternatives = names.map(namePattern).join("|");
  return new RegExp(
    // opener, optional slash, the name, then something that ends a tag name (not a letter, digit or `.`)
    `[${OPENERS}]${GAP}(?:[${SLASHES}]${GAP})?(?:${alternatives})(?=[\\s${INVISIBLE}${SLASHES}${CLOSERS}]|$)` +
      // attributes up to a closing `>` on the same tag, when there is one
      `(?:[^<>]{0,200}>)?`,
    "giu",
  );
}

const RESERVED_TAG = tagPattern(RESERVED_TAG_WORDS);
const ANY_OPENER = new RegExp(`[${OPENERS}]`, "u");
const LEADING_OPENER = new RegExp(`^[${OPENERS}]`, "u");

function escapeTag(tag: string): string {
  const escaped = tag.replace(LEADING_OPENER, "&lt;");
  return escaped.endsWith(">") ? `${escaped.slice(0, -1)}&gt;` : escaped;
}

/** `text` with every spelling of a reserved tag escaped (`&lt;…&gt;`); everything else as written. */
export function neutralizeHintTags(text: string): string {
  if (!ANY_OPENER.test(text)) return text;
  return text.replace(RESERVED_TAG, escapeTag);
}

/** The same for every string inside a JSON value (tool inputs and outputs), object keys included. */
export function neutralizeHintTagsDeep(value: unknown): unknown {
  if (typeof value === "string") return neutralizeHintTags(value);
  if (Array.isArray(value)) return value.map(neutralizeHintTagsDeep);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [neutralizeHintTags(k), neutralizeHintTagsDeep(v)]),
    );
  }
  return value;
}
