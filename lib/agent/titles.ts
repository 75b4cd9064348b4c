// A conversation's generated title: the rule the demo model uses (the first message's key words, title-cased), the
// short prompt a real model gets, and the neutralising of what it answers (one line, no tags or markup, at most six
// words and 60 characters). Pure: no model, no database.

export const TITLE_MAX_WORDS = 6;
export const TITLE_MAX_CHARS = 60;
/** How much of the first exchange the title prompt quotes: enough for a topic, cheap to send. */
const QUOTE_CHARS = 1_000;

const STOP_WORDS = new Set(
  (
    "a an the and or but if of to in on at by for with about from into over under as is are was were be been being am " +
    "it its it's this that these those i me my we us our you your he she they them their please can could would will " +
    "shall should may might must do does did done have has had what which who whom whose how why when where there here " +
    "so than then just very some any all s t up out"
  ).split(" "),
);

/** Capitalises a lower-case word; one with capitals of its own (iPhone, USB) is kept as written. */
function titleCase(word: string): string {
  return word === word.toLowerCase() ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

/** The demo model's title: the first message's key words (stop words left out), title-cased, at most six. */
export function ruleTitle(text: string): string | null {
  const words = text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? [];
  const key = words.filter((w) => !STOP_WORDS.has(w.toLowerCase()));
  const chosen = (key.length ? key : words).slice(0, TITLE_MAX_WORDS).map(titleCase);
  return cleanTitle(chosen.join(" "));
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
export function cleanTitle(raw: string): string | null {
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
    .slice(0, TITLE_MAX_WORDS);
  let title = words.join(" ").replace(/^["'“”‘’«»]+|["'“”‘’«»]+$/g, "");
  if (title.length > TITLE_MAX_CHARS) title = `${title.slice(0, TITLE_MAX_CHARS - 1).trimEnd()}…`;
  return title.length > 0 ? title : null;
}
