// Prompt caches for the provider fakes. A request is a list of content blocks in the order the provider reads them;
// block k's prefix (blocks 0..k) has a hash (chained, so equal hashes mean equal prefixes) and a token total (the sum
// of the blocks' estimates, so counts are deterministic and add up over blocks).
import { estimateTokens } from "./fake-core.ts";

export type CacheBlock = {
  /** Where the block sits in the body, e.g. `messages.3.content.1`. */
  path: string;
  /** Everything that makes the block this block in this place: its section, role, whether it starts a message, its JSON. */
  key: string;
  tokens: number;
  /** Marked with `cache_control` (Anthropic). */
  breakpoint: boolean;
};
export type Prefixes = { blocks: CacheBlock[]; hashes: string[]; totals: number[]; total: number };

/** A block whose tokens are estimated from `json` (the block as sent, without its cache marker). */
export function block(path: string, context: string, json: string, breakpoint = false): CacheBlock {
  return { path, key: `${context}\u0000${json}`, tokens: estimateTokens(json), breakpoint };
}

/**
 * The hash and running token total of every prefix; `scope` (the model) keeps caches of different models apart. The
 * hash is two chained 32-bit FNV-1a states over the keys (a prefix's hash is the state after its last block), cheap
 * enough for a 2,000-message conversation on every request; with the prefix's length in characters it is
 * collision-free in practice at test scale.
 */
export function prefixes(scope: string, blocks: CacheBlock[]): Prefixes {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  let chars = 0;
  const feed = (s: string) => {
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995) ^ (b >>> 15);
    }
    a = Math.imul(a ^ 0xffff, 0x01000193); // ends the key
    b = Math.imul(b ^ 0xffff, 0x5bd1e995);
    chars += s.length;
  };
  feed(scope);
  const hashes: string[] = [];
  const totals: number[] = [];
  let total = 0;
  for (const blk of blocks) {
    feed(blk.key);
    hashes.push(`${(a >>> 0).toString(36)}.${(b >>> 0).toString(36)}.${chars}`);
    total += blk.tokens;
    totals.push(total);
  }
  return { blocks, hashes, totals, total };
}

export type CacheResult = { readTokens: number; writeTokens: number; inputTokens: number; breakpoints: string[] };

/** Anthropic's documented lookback: from each breakpoint, the cache is checked at most this many blocks back. */
export const LOOKBACK_BLOCKS = 20;

/**
 * Anthropic's prompt cache as documented: only prefixes ending at a breakpoint are written (and only from
 * `minTokens` on); a request reads the longest cached prefix found by looking back from each of its breakpoints at
 * most 20 blocks (the breakpoint's own block included); it writes the prefixes of its breakpoints beyond what it read.
 * `cache_read` is the prefix read, `cache_creation` the tokens from there to its last written breakpoint, `input` the rest.
 */
export class BreakpointCache {
  private entries = new Set<string>();

  apply(p: Prefixes, minTokens: number): CacheResult {
    const marks = p.blocks.flatMap((b, i) => (b.breakpoint ? [i] : []));
    let read = -1;
    for (const mark of marks) {
      for (let i = mark; i >= Math.max(0, mark - LOOKBACK_BLOCKS + 1) && i > read; i--) {
        if (this.entries.has(p.hashes[i] as string)) {
          read = i;
          break;
        }
      }
    }
    const readTokens = read >= 0 ? (p.totals[read] as number) : 0;
    let written = -1;
    for (const mark of marks) {
      if (mark <= read || (p.totals[mark] as number) < minTokens) continue;
      this.entries.add(p.hashes[mark] as string);
      written = mark;
    }
    const writeTokens = written >= 0 ? (p.totals[written] as number) - readTokens : 0;
    return {
      readTokens,
      writeTokens,
      inputTokens: p.total - readTokens - writeTokens,
      breakpoints: marks.map((i) => p.blocks[i]?.path as string),
    };
  }

  clear(): void {
    this.entries.clear();
  }
}

/**
 * Gemini's implicit cache: every prefix of a served request from `minTokens` on is kept; a request reads the longest
 * prefix it shares exactly with an earlier one (the whole prompt is still counted, the read part as cached).
 */
export class ImplicitCache {
  private entries = new Set<string>();

  apply(p: Prefixes, minTokens: number): CacheResult {
    let readTokens = 0;
    for (let i = p.hashes.length - 1; i >= 0; i--) {
      if ((p.totals[i] as number) < minTokens) break;
      if (this.entries.has(p.hashes[i] as string)) {
        readTokens = p.totals[i] as number;
        break;
      }
    }
    for (let i = p.hashes.length - 1; i >= 0 && (p.totals[i] as number) >= minTokens; i--)
      this.entries.add(p.hashes[i] as string);
    return { readTokens, writeTokens: 0, inputTokens: p.total - readTokens, breakpoints: [] };
  }

  clear(): void {
    this.entries.clear();
  }
}
