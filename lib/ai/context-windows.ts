// Context windows are not in the AI SDK: the model families' own (./model-families.ts: Fable and Mythos 5 have 1M),
// else a table of common models, matched by prefix (longest first).
import { modelFamily } from "./model-families.ts";

const TABLE: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ["gpt-4.1", 1_047_576],
  ["gpt-4o", 128_000],
  ["gpt-4-turbo", 128_000],
  ["gpt-4", 8_192],
  ["gpt-3.5-turbo", 16_385],
  ["gpt-5", 400_000],
  ["o1", 200_000],
  ["o3", 200_000],
  ["o4", 200_000],
  // Anthropic: every Claude but the families with their own (model-families.ts) has a 200k window by default.
  ["claude", 200_000],
  // Google: Gemini 2.0, 2.5 and 3 (pro, flash, flash-lite) take 1,048,576 input tokens.
  ["gemini", 1_048_576],
  ["gemma-3n", 32_768],
  ["gemma-3", 131_072],
  ["llama3.1", 131_072],
  ["llama3.2", 131_072],
  ["llama3.3", 131_072],
  ["llama3", 8_192],
  ["llama-3.1", 131_072],
  ["qwen2.5", 32_768],
  ["qwen3", 40_960],
  ["mistral", 32_768],
  ["mixtral", 32_768],
  ["phi3", 4_096],
  ["phi4", 16_384],
  ["gemma2", 8_192],
  ["gemma3", 131_072],
  ["deepseek", 65_536],
  ["hintline-demo", 8_192],
];

const SORTED = [...TABLE].sort((a, b) => b[0].length - a[0].length);

export const FALLBACK_CONTEXT_WINDOW = 8_192;

/** The tables' window for the model (a `provider/` prefix ignored), or undefined when they do not know it. */
export function knownContextWindow(modelId: string): number | undefined {
  const family = modelFamily(modelId)?.window;
  if (family !== undefined) return family;
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  return SORTED.find(([prefix]) => id.startsWith(prefix))?.[1];
}

/** The model's context window in tokens: an explicit override, else the table, else a conservative fallback. */
export function contextWindowFor(modelId: string, override?: number): number {
  if (override && Number.isFinite(override) && override > 0) return Math.floor(override);
  return knownContextWindow(modelId) ?? FALLBACK_CONTEXT_WINDOW;
}

// Which models take images, matched the same way (longest prefix first): true for the vision families of the table,
// false for the text-only ones. A model the table does not know is taken as text-only unless HINTLINE_IMAGE_MODELS
// (comma-separated id prefixes, e.g. "llava,qwen2.5-vl") names it.
const IMAGE_TABLE: ReadonlyArray<readonly [prefix: string, images: boolean]> = [
  ["gpt-4.1", true],
  ["gpt-4o", true],
  ["gpt-4-turbo", true],
  ["gpt-4", false],
  ["gpt-3.5-turbo", false],
  ["gpt-5", true],
  ["o1", true],
  ["o3", true],
  ["o4", true],
  ["claude", true],
  ["gemini", true],
  ["gemma-3n", true],
  ["gemma-3", true],
  ["gemma3", true],
  ["llama3.2-vision", true],
  ["llava", true],
  ["qwen2.5-vl", true],
  ["pixtral", true],
  ["hintline-demo", true],
];
const IMAGE_SORTED = [...IMAGE_TABLE].sort((a, b) => b[0].length - a[0].length);

/** Does the model take image input (a `provider/` prefix ignored)? */
export function takesImages(
  modelId: string,
  extraPrefixes: string | undefined = process.env.HINTLINE_IMAGE_MODELS,
): boolean {
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  const extra = (extraPrefixes ?? "")
    .split(",")
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  if (extra.some((prefix) => id.startsWith(prefix))) return true;
  return IMAGE_SORTED.find(([prefix]) => id.startsWith(prefix))?.[1] ?? false;
}
