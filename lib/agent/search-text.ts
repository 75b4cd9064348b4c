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

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/** The text the server kept on an attachment's part (a text file's text, a PDF's pages), or "" when it kept none. */
function attachmentText(part: Record<string, unknown>): string {
  const meta = isRecord(part.providerMetadata) ? part.providerMetadata.hintline : undefined;
  if (!isRecord(meta)) return "";
  if (typeof meta.text === "string") return meta.text;
  return Array.isArray(meta.pages) ? meta.pages.filter((p) => typeof p === "string").join("\n\n") : "";
}

/**
 * What search reads of stored message parts (the database's index covers the same): the text parts, then each
 * attachment's stored text after its file name ("notes.txt: …"), read defensively.
 */
export function searchableText(parts: unknown): string {
  if (!Array.isArray(parts)) return "";
  const texts: string[] = [];
  const files: string[] = [];
  for (const part of parts) {
    if (!isRecord(part)) continue;
    if (part.type === "text" && typeof part.text === "string" && part.text) texts.push(part.text);
    if (part.type !== "file") continue;
    const text = attachmentText(part);
    if (text) files.push(typeof part.filename === "string" && part.filename ? `${part.filename}: ${text}` : text);
  }
  return [...texts, ...files].join("\n\n");
}

/** Lines that are only markdown's syntax: a code fence, a display-math fence, a rule, a table's separator row. */
const SYNTAX_LINE =
  /^\s*(?:```|~~~|\$\$\s*$)|^\s{0,3}([-*_])(?:\s*\1){2,}\s*$|^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/** A line's inline markdown as the words a reader sees. */
function plainInline(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\](?:\([^)]*\)|\[[^\]]*\])/g, "$1")
    .replace(/<((?:https?|mailto):[^>\s]+)>/g, "$1")
    .replace(/<\/?[a-zA-Z][\w-]*(?:\s[^<>]*)?\/?>/g, "")
    .replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_, _ticks, code: string) => code.trim())
    .replace(/\$\$([^$]+)\$\$/g, "$1")
    .replace(/(\*\*|__|~~)(?=\S)([\s\S]*?[^\s\\])\1/g, "$2")
    .replace(/(?<![\p{L}\p{N}*\\])\*(?=[^\s*])([^*]*?[^\s\\])\*(?!\*)/gu, "$1")
    .replace(/(?<![\p{L}\p{N}_\\])_(?=[^\s_])([^_]*?[^\s\\])_(?![\p{L}\p{N}_])/gu, "$1")
    .replace(/\\([\\`*_{}[\]()#+\-.!|~>])/g, "$1");
}

/**
 * `markdown` as plain text, line by line: headings, quotes, list and task markers, fences, rules and table pipes
 * taken out; emphasis, code, links and images as their text. What is not markdown (snake_case, 2 * 3) stays.
 */
export function plainText(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) => {
      if (SYNTAX_LINE.test(line)) return "";
      const bare = line
        .replace(/^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/, "$1")
        .replace(/^(?:\s*>)+\s?/, "")
        .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, "");
      const text = plainInline(bare);
      return /^\s*\|.*\|\s*$/.test(bare) ? text.replace(/\|/g, " ") : text;
    })
    .join("\n");
}

/**
 * A search result's snippet from a message's stored parts: plain text (no markdown) around the first of `words`
 * found, in its text or an attachment's. Only the stretch around the match is made plain: a message and its
 * attachments may hold hundreds of thousands of characters.
 */
export function matchSnippet(parts: unknown, words: readonly string[], width = 120): string {
  const text = searchableText(parts);
  const lower = text.toLowerCase();
  const at = words.reduce((best, w) => {
    const i = lower.indexOf(w);
    return i >= 0 && (best < 0 || i < best) ? i : best;
  }, -1);
  // A few snippets' width either side, widened to whole lines when they end near (markdown is read line by line).
  const reach = width * 4;
  const start = Math.max(0, at - reach);
  const lineStart = text.lastIndexOf("\n", start) + 1;
  const from = start - lineStart <= width ? lineStart : start;
  const stop = Math.min(text.length, Math.max(at, 0) + reach);
  const lineEnd = text.indexOf("\n", stop) < 0 ? text.length : text.indexOf("\n", stop);
  const to = lineEnd - stop <= width ? lineEnd : stop;
  const snippet = snippetAround(plainText(text.slice(from, to)), words, width);
  const before = from > 0 && !snippet.startsWith("…") ? "…" : "";
  const after = to < text.length && !snippet.endsWith("…") ? "…" : "";
  return `${before}${snippet}${after}`;
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
