// The sidebar's search, the pure part: the words of a query, and the snippet of a message that matched.

export const MAX_SEARCH_WORDS = 8;
/** The longest search query, in characters: the API refuses longer ones and the search box takes no more. */
export const MAX_SEARCH_QUERY_CHARS = 200;

/**
 * Letters of scripts written without spaces between words (Chinese, Japanese, Thai, …) and Korean, whose words carry
 * particles: a word index sees a whole run of them as one word, so a run is searched as a substring instead.
 */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\u30fc]/u;
const UNSPACED_RUNS = new RegExp(`${UNSPACED.source}+|(?:(?!${UNSPACED.source})[\\p{L}\\p{N}])+`, "gu");

export const isUnspacedWord = (word: string): boolean => UNSPACED.test(word);

/** The words with runs of unspaced scripts apart from the letters around them ("iphone手机" → "iphone", "手机"). */
export function splitUnspacedRuns(words: readonly string[]): string[] {
  return [...new Set(words.flatMap((w) => (isUnspacedWord(w) ? (w.match(UNSPACED_RUNS) ?? []) : [w])))];
}

/** Whether `text` holds every word as a substring, compared as a query is (NFKC, lower case). */
export function holdsEveryWord(text: string, words: readonly string[]): boolean {
  const folded = text.normalize("NFKC").toLowerCase();
  return words.every((w) => folded.includes(w));
}

/** The lower-cased words (letters and digits) of a query, without repeats, at most `max` of at most 64 characters. */
export function searchWords(query: string, max = MAX_SEARCH_WORDS): string[] {
  const words =
    query
      .normalize("NFKC")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.filter((w) => w.length <= 64))].slice(0, max);
}

/**
 * The text parts of stored message parts, read defensively, joined by `separator`. Files, hints and tool calls leave
 * nothing behind (joined as "", each put a blank line above a person's text: their attachments are shown apart).
 */
export function textOfParts(parts: unknown, separator = " "): string {
  if (!Array.isArray(parts)) return "";
  return parts
    .map((p) =>
      typeof p === "object" && p !== null && (p as { type?: unknown }).type === "text"
        ? String((p as { text?: unknown }).text ?? "")
        : "",
    )
    .filter(Boolean)
    .join(separator);
}

/** About `width` characters of `text` around the first of `words` found in it, on one line, with … where cut. */
export function snippetAround(text: string, words: readonly string[], width = 120): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const lower = flat.toLowerCase();
  const at = words.reduce((best, w) => {
    const i = lower.indexOf(w);
    return i >= 0 && (best < 0 || i < best) ? i : best;
  }, -1);
  if (flat.length <= width) return flat;
  const start = Math.max(0, Math.min(at < 0 ? 0 : at - Math.floor(width / 3), flat.length - width));
  const cut = flat.slice(start, start + width);
  return `${start > 0 ? "…" : ""}${cut}${start + width < flat.length ? "…" : ""}`;
}
