// Token counting with gpt-tokenizer, with the encoding chosen per model family: o200k_base for the GPT-4o / 4.1 / 5
// and o-series families (and as the estimate for other modern models), cl100k_base for GPT-4 and GPT-3.5.
import { countTokens as countO200k } from "gpt-tokenizer/encoding/o200k_base";

export type Encoding = "o200k_base" | "cl100k_base";

export function encodingFor(modelId: string): Encoding {
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  return /^(gpt-4(?!o|\.\d)|gpt-3\.5)/.test(id) ? "cl100k_base" : "o200k_base";
}

let active: (text: string) => number = countO200k;
let activeEncoding: Encoding = "o200k_base";

/** Switches the process's counting to the model's encoding (the other table is loaded only when needed). */
export async function selectEncodingFor(modelId: string): Promise<Encoding> {
  const wanted = encodingFor(modelId);
  if (wanted !== activeEncoding) {
    active = wanted === "cl100k_base" ? (await import("gpt-tokenizer/encoding/cl100k_base")).countTokens : countO200k;
    activeEncoding = wanted;
  }
  return activeEncoding;
}

export function countTokens(text: string): number {
  return text ? active(text) : 0;
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
