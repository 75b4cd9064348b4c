// Pure helpers of the sidebar: the matched words of a search result marked, and an export's file name.
import { isUnspacedWord, searchWords, splitUnspacedRuns } from "@/lib/agent/search-text";

export type TextPiece = { text: string; mark: boolean };

/**
 * `text` cut into pieces, those that match a word of `query` marked: a word matches at the start of a word of the
 * text (the search matches whole words, the last one as a prefix) and the mark runs to the end of that word. A query
 * with Chinese, Japanese or the like is searched by substring, so then every word is marked wherever it occurs.
 */
export function highlightPieces(text: string, query: string): TextPiece[] {
  const words = splitUnspacedRuns(searchWords(query));
  if (words.length === 0 || text === "") return text ? [{ text, mark: false }] : [];
  const substrings = words.some(isUnspacedWord);
  const source = substrings ? `(?:${words.join("|")})` : `(?<![\\p{L}\\p{N}])(?:${words.join("|")})[\\p{L}\\p{N}]*`;
  const pattern = new RegExp(source, "giu");
  const pieces: TextPiece[] = [];
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    if (match.index > last) pieces.push({ text: text.slice(last, match.index), mark: false });
    pieces.push({ text: text.slice(match.index, match.index + match[0].length), mark: true });
    last = match.index + match[0].length;
  }
  if (last < text.length) pieces.push({ text: text.slice(last), mark: false });
  return pieces;
}

/** "1 conversation matches." or "2 conversations match." */
export function matchCountText(count: number): string {
  return count === 1 ? "1 conversation matches." : `${count.toLocaleString("en-US")} conversations match.`;
}

/** "hintline-trip-to-lisbon-2026-12-01.json": the title in plain letters and the day of the export. */
export function exportFileName(title: string, now: Date): string {
  const slug = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48)
    .replace(/-+$/, "");
  const day = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
  return `hintline-${slug || "conversation"}-${day}.json`;
}
