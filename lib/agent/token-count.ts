// Token counting with the o200k_base encoding (GPT-4o family and a good estimate for other modern models).
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

export function countTokens(text: string): number {
  return text ? countO200k(text) : 0;
}

/** countTokens with a small cache, for texts counted again and again (memory, instructions). */
export function createTokenCounter(limit = 64): (text: string) => number {
  const cache = new Map<string, number>();
  return (text) => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const count = countTokens(text);
    if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
    cache.set(text, count);
    return count;
  };
}
