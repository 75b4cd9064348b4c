// Token counting with gpt-tokenizer, with the encoding chosen per model family: o200k_base for the GPT-4o / 4.1 / 5
// and o-series families (and as the estimate for other modern models), cl100k_base for GPT-4 and GPT-3.5.
//
// The tokenizer first splits text into pieces (words, runs of punctuation, runs of whitespace) and then merges each
// piece pair by pair, which costs the square of the piece's length: one unbroken run of 100,000 `=` took seconds.
// So text is handed to it only with pieces of bounded length: an ordinary text goes as it is (its count is exact),
// and a piece longer than MAX_PIECE is counted in slices of that length (a close count, in linear time).
import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from "gpt-tokenizer/encodingParams/constants";
import { BoundedMap } from "../bounded-map.ts";
import { sharedEncoding } from "../tokenizer-ranks.ts";

export type Encoding = "o200k_base" | "cl100k_base";

/** A piece longer than this is counted in slices of this length. */
export const MAX_PIECE = 256;
/** Texts up to this length are counted in one call, whatever they hold (at most DIRECT_LIMIT² work). */
export const DIRECT_LIMIT = 1024;

/** Special-token spellings in a text (`<|endoftext|>`) are counted as the plain text a provider sees them as. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

export function encodingFor(modelId: string): Encoding {
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  return /^(gpt-4(?!o|\.\d)|gpt-3\.5)/.test(id) ? "cl100k_base" : "o200k_base";
}

type Encoder = { count: (text: string) => number; split: RegExp };

/** The package's encoding, with its table read from a JSON copy rather than compiled from its module (tokenizer-ranks.ts). */
function encoder(encoding: Encoding, split: RegExp): Encoder {
  const api = sharedEncoding(encoding);
  return { count: (text) => api.countTokens(text, PLAIN_TEXT), split };
}

const o200k = encoder("o200k_base", O200K_TOKEN_SPLIT_REGEX);
let cl100k: Encoder | undefined;
let active: Encoder = o200k;
let activeEncoding: Encoding = "o200k_base";

/** Switches the process's counting to the model's encoding (the other table is loaded only when needed). */
export async function selectEncodingFor(modelId: string): Promise<Encoding> {
  const wanted = encodingFor(modelId);
  if (wanted !== activeEncoding) {
    if (wanted === "cl100k_base") cl100k ??= encoder("cl100k_base", CL100K_TOKEN_SPLIT_REGEX);
    active = wanted === "cl100k_base" && cl100k ? cl100k : o200k;
    activeEncoding = wanted;
  }
  return activeEncoding;
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/**
 * `text` counted by `count` (a tokenizer's count) in calls whose pieces, as `split` (that tokenizer's pre-split
 * pattern) cuts them, are at most MAX_PIECE long. Exact when no piece is longer; otherwise each long piece is counted
 * in MAX_PIECE slices, so the work is linear in the text's length.
 */
export function countInBoundedPieces(text: string, count: (text: string) => number, split: RegExp): number {
  if (text.length <= DIRECT_LIMIT) return text ? count(text) : 0;
  let total = 0;
  let start = 0; // where the text not yet counted begins
  for (const match of text.matchAll(split)) {
    const piece = match[0];
    if (piece.length <= MAX_PIECE) continue;
    if (match.index > start) total += count(text.slice(start, match.index));
    for (let at = 0; at < piece.length; ) {
      let end = Math.min(at + MAX_PIECE, piece.length);
      // Never between the two halves of a surrogate pair.
      if (end < piece.length && isHighSurrogate(piece.charCodeAt(end - 1))) end--;
      total += count(piece.slice(at, end));
      at = end;
    }
    start = match.index + piece.length;
  }
  if (start < text.length) total += count(start === 0 ? text : text.slice(start));
  return total;
}

export function countTokens(text: string): number {
  return countInBoundedPieces(text, active.count, active.split);
}

/** The most text a counter's cache keeps (its keys are whole texts: a system prompt, a summary, a tool's schema). */
export const TOKEN_COUNTER_MAX_BYTES = 2 * 1024 * 1024;

/**
 * countTokens with a small cache, for texts counted again and again (memory, instructions): at most `limit` texts and
 * TOKEN_COUNTER_MAX_BYTES of them. `cachedBytes()` tells what it holds.
 */
export function createTokenCounter(limit = 64): ((text: string) => number) & { cachedBytes: () => number } {
  const cache = new BoundedMap<string, number>({
    maxEntries: limit,
    maxBytes: TOKEN_COUNTER_MAX_BYTES,
    sizeOf: (text) => 2 * text.length + 64,
  });
  const count = (text: string) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const tokens = countTokens(text);
    cache.set(text, tokens);
    return tokens;
  };
  return Object.assign(count, { cachedBytes: () => cache.bytes });
}
