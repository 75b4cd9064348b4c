// A knowledge file as the full-text index sees it: bounded chunks of whole lines (or pieces of one long line), each
// with the number of its first line, instead of one row per line. A file of a million empty lines is then no row at
// all, and any 1 MiB file a few hundred rows, so an upload stays a short write whatever its shape. A search finds the
// chunks through the database's index and then the matching lines inside them (`matchingLines`).

/** A chunk closes at about this many characters (at a line end). */
export const CHUNK_CHARS = 4_096;
/** A longer line is cut into pieces of at most this many characters (at a space when there is one). */
export const PIECE_CHARS = 8_192;

export type KnowledgeChunk = { seq: number; firstLine: number; text: string };

const HAS_WORD = /[\p{L}\p{N}]/u;
const LINE_BREAK = /\r\n|\n|\r/;

/** Where to cut a long line before `end`: after the last space in its second half, else at `end` (never in a pair). */
function cutAt(line: string, start: number, end: number): number {
  const space = line.lastIndexOf(" ", end - 1);
  if (space > start + (end - start) / 2) return space + 1;
  const code = line.charCodeAt(end - 1);
  return code >= 0xd800 && code <= 0xdbff ? end - 1 : end;
}

/** The chunks of `content` that hold a letter or digit (others can match no search), numbered from 0. */
export function knowledgeChunks(content: string): KnowledgeChunk[] {
  const chunks: KnowledgeChunk[] = [];
  const push = (firstLine: number, text: string) => {
    if (HAS_WORD.test(text)) chunks.push({ seq: chunks.length, firstLine, text });
  };
  // The open chunk: content[from, to) holds its whole lines (with their original line breaks), from line `firstLine`.
  let from = -1;
  let to = 0;
  let firstLine = 1;
  const flush = () => {
    if (from >= 0) push(firstLine, content.slice(from, to));
    from = -1;
  };
  let lineNo = 0;
  for (let start = 0; ; ) {
    let end = start;
    while (end < content.length) {
      const c = content.charCodeAt(end);
      if (c === 10 || c === 13) break;
      end++;
    }
    lineNo++;
    if (end - start > PIECE_CHARS) {
      flush();
      const line = content.slice(start, end);
      for (let at = 0; at < line.length; ) {
        const cut = at + PIECE_CHARS >= line.length ? line.length : cutAt(line, at, at + PIECE_CHARS);
        push(lineNo, line.slice(at, cut));
        at = cut;
      }
    } else {
      if (from >= 0 && end - from > CHUNK_CHARS) flush();
      if (from < 0) {
        from = start;
        firstLine = lineNo;
      }
      to = end;
    }
    if (end >= content.length) break;
    start = end + (content.charCodeAt(end) === 13 && content.charCodeAt(end + 1) === 10 ? 2 : 1);
  }
  flush();
  return chunks;
}

/** A text as the search compares it: accents removed, lower-cased, compatibility forms folded. */
const fold = (text: string) =>
  text
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase();

export type LineMatch = { line: number; text: string };

/**
 * The lines of a chunk holding every word of `words` (or, with `anyWord`, one of them) as a whole word, in order.
 * `words` are letters and digits (lower-case); a piece of a long line counts as that line.
 */
export function matchingLines(
  chunk: { firstLine: number; text: string },
  words: readonly string[],
  anyWord: boolean,
): LineMatch[] {
  const wanted = words.map(fold);
  const found: LineMatch[] = [];
  chunk.text.split(LINE_BREAK).forEach((text, i) => {
    if (!HAS_WORD.test(text)) return;
    const tokens = new Set(fold(text).match(/[\p{L}\p{N}]+/gu) ?? []);
    const ok = anyWord ? wanted.some((w) => tokens.has(w)) : wanted.every((w) => tokens.has(w));
    if (ok) found.push({ line: chunk.firstLine + i, text });
  });
  return found;
}
