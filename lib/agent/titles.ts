// A conversation's generated title: the rule the demo model uses (the first message as a short phrase), the short
// prompt a real model gets, and the neutralising of what it answers (one line, no tags or markup, at most six words
// and 60 characters). Pure: no model, no database.

export const TITLE_MAX_WORDS = 6;
export const TITLE_MAX_CHARS = 60;
/** The demo's titles: a phrase a person reads at a glance in the sidebar. */
export const RULE_TITLE_MAX_CHARS = 40;
/** How much of the first exchange the title prompt quotes: enough for a topic, cheap to send. */
const QUOTE_CHARS = 1_000;

/** Words a phrase cut short does not end on ("…book a" reads better as "…book"). */
const DANGLING = new Set(
  "a an the and or but of to in on at by for with about from into as is are was were be my your our their its".split(
    " ",
  ),
);
/** Greetings and courtesies a title leaves out. */
const OPENERS = /^(?:(?:hi|hello|hey|please|ok(?:ay)?|so)\b[\s,!.]*|(?:can|could|would|will) you\s+(?:please\s+)?)+/i;

/**
 * The demo model's title: the first message's first line as a phrase — greetings and markup out, list separators as
 * commas, capitalised (unless its first word has capitals of its own) — cut at a word to about 40 characters ("Add tasks: pack boxes, book a van").
 */
export function ruleTitle(text: string): string | null {
  const line = cleanTitle(text, { maxWords: Number.POSITIVE_INFINITY, maxChars: Number.POSITIVE_INFINITY });
  if (!line) return null;
  const trimEnd = (text: string) => text.replace(/[.,:;!?…\s]+$/u, "");
  const said = trimEnd(line.replace(/\s*;\s*/g, ", "));
  // A greeting alone ("hello") is the title as it is.
  const phrase = trimEnd(said.replace(OPENERS, "")) || said;
  if (!/[\p{L}\p{N}]/u.test(phrase)) return null;
  // A first word with capitals of its own (iPhone) stays as written.
  const first = phrase.split(" ", 1)[0]!;
  const capitalised = first === first.toLowerCase() ? phrase.charAt(0).toUpperCase() + phrase.slice(1) : phrase;
  if (capitalised.length <= RULE_TITLE_MAX_CHARS) return capitalised;
  const words = capitalised.slice(0, RULE_TITLE_MAX_CHARS).split(" ");
  // The last word was cut (or the phrase is one long word): it goes, and so do words that leave the phrase dangling.
  if (words.length > 1) words.pop();
  while (
    words.length > 1 &&
    DANGLING.has(
      words
        .at(-1)!
        .toLowerCase()
        .replace(/[^\p{L}]/gu, ""),
    )
  )
    words.pop();
  return `${words
    .join(" ")
    .replace(/[.,:;!?\s]+$/u, "")
    .slice(0, RULE_TITLE_MAX_CHARS - 1)}…`;
}

/** The one small model call's prompt: the instruction and the exchange, each side quoted and cut short. */
export function titlePrompt(person: string, reply: string): { system: string; prompt: string } {
  const quote = (text: string) => (text.length > QUOTE_CHARS ? `${text.slice(0, QUOTE_CHARS)}…` : text);
  return {
    system: `You name conversations. Answer with a title of at most ${TITLE_MAX_WORDS} words for the conversation below: no quotes, no punctuation at the end, nothing else.`,
    prompt: `Person: ${quote(person)}\n\nAssistant: ${quote(reply)}`,
  };
}

/**
 * What a model answered, made safe to show and store as a title: markup, tags and control characters removed, the
 * first line only, a "Title:" prefix and wrapping quotes dropped, at most six words and 60 characters. Null when
 * nothing is left.
 */
export function cleanTitle(
  raw: string,
  { maxWords = TITLE_MAX_WORDS, maxChars = TITLE_MAX_CHARS }: { maxWords?: number; maxChars?: number } = {},
): string | null {
  const line =
    raw
      .replace(/<[^>]*>/g, " ")
      .replace(/[<>]/g, " ")
      .replace(/[\u0000-\u0009\u000b-\u001f\u007f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, " ")
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? "";
  const words = line
    .replace(/^(#+|[-*>]|\d+[.)])\s+/, "")
    .replace(/^title\s*:\s*/i, "")
    .replace(/[*_`#~]/g, "")
    .replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, "")
    .replace(/[.,:;!?…\s]+$/u, "")
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, maxWords);
  let title = words.join(" ").replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, "");
  if (title.length > maxChars) title = `${title.slice(0, maxChars - 1).trimEnd()}…`;
  return title.length > 0 ? title : null;
}
