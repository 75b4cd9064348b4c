// What each model family costs and how its provider caches, as data: one row per family, matched by id prefix (the
// longest prefix that matches wins; `claude-sonnet-4` matches `claude-sonnet-4-5-20250929` but `gpt-5` does not match
// `gpt-5.6`). Prices are list prices in dollars per million tokens (standard tier); `read` and the `write*` figures are
// multipliers of the input price. Where each figure came from is said beside it, with the date it was read; "the
// issue" is Hintline's issue 49 (2026-12-06), used where no provider page with the figure could be found.

export type CacheProvider = "openai" | "anthropic" | "google";

export type ModelFamily = {
  provider: CacheProvider;
  input: number;
  output: number;
  /** A cache read costs this share of the input price. */
  read: number;
  /** A cache write (Anthropic: with the 5-minute TTL) costs this multiple of the input price; absent: as input. */
  write5m?: number;
  /** A cache write with Anthropic's 1-hour TTL. */
  write1h?: number;
  /** The shortest prefix the provider caches; below it nothing is read or written, and no error is raised. */
  minCacheTokens?: number;
  /** The context window, where the family's differs from context-windows.ts's table. */
  window?: number;
};

// Anthropic's multipliers, the same for every Claude model unless its row says otherwise: reads 0.1×, 5-minute writes
// 1.25×, 1-hour writes 2× (Anthropic's prompt-caching and pricing pages as quoted on portkey.ai/docs and
// developersdigest.tech "Fable 5 prompt caching economics", accessed 2026-06-11; read 2026-12-06).
const claude = (input: number, output: number, rest: Partial<ModelFamily> = {}): ModelFamily => ({
  provider: "anthropic",
  input,
  output,
  read: 0.1,
  write5m: 1.25,
  write1h: 2,
  ...rest,
});

const openai = (input: number, output: number, read: number, rest: Partial<ModelFamily> = {}): ModelFamily => ({
  provider: "openai",
  input,
  output,
  read,
  // OpenAI caches prompts from 1,024 tokens (its prompt-caching guide; carried over, not re-read).
  minCacheTokens: 1024,
  ...rest,
});

const gemini = (input: number, output: number, read: number, minCacheTokens?: number): ModelFamily => ({
  provider: "google",
  input,
  output,
  read,
  ...(minCacheTokens === undefined ? {} : { minCacheTokens }),
});

const MILLION = 1_000_000;

export const MODEL_FAMILIES: ReadonlyArray<readonly [prefix: string, family: ModelFamily]> = [
  // OpenAI, before 2026: the previous table's figures (OpenAI's pricing page, 2025; not re-read).
  ["gpt-4.1-nano", openai(0.1, 0.4, 0.25)],
  ["gpt-4.1-mini", openai(0.4, 1.6, 0.25)],
  ["gpt-4.1", openai(2.0, 8.0, 0.25)],
  ["gpt-4o-mini", openai(0.15, 0.6, 0.5)],
  ["gpt-4o", openai(2.5, 10.0, 0.5)],
  ["gpt-5-nano", openai(0.05, 0.4, 0.1)],
  ["gpt-5-mini", openai(0.25, 2.0, 0.1)],
  ["gpt-5", openai(1.25, 10.0, 0.1)],
  ["o4-mini", openai(1.1, 4.4, 0.25)],
  ["o3-mini", openai(1.1, 4.4, 0.5)],
  ["o3", openai(2.0, 8.0, 0.25)],
  // GPT-5.4 and 5.5: OpenAI's pricing page as quoted by aifinhub.io ("verified 2026-05-25"; read 2026-12-06).
  ["gpt-5.4-nano", openai(0.2, 1.25, 0.1)],
  ["gpt-5.4-mini", openai(0.75, 4.5, 0.1)],
  ["gpt-5.4", openai(2.5, 15.0, 0.1)],
  ["gpt-5.5", openai(5.0, 30.0, 0.1)],
  // GPT-5.6 (Sol, Terra, Luna): prices from OpenAI's help-center preview as quoted by laxima.tech; reads 0.1× and
  // writes 1.25× (reported as `cache_write_tokens`) from OpenAI's 2026-06-27 announcement as quoted by
  // ai-cost-estimator.com, and the issue (both read 2026-12-06). A bare `gpt-5.6` is priced as Sol, the flagship.
  ["gpt-5.6-sol", openai(5.0, 30.0, 0.1, { write5m: 1.25 })],
  ["gpt-5.6-terra", openai(2.5, 15.0, 0.1, { write5m: 1.25 })],
  ["gpt-5.6-luna", openai(1.0, 6.0, 0.1, { write5m: 1.25 })],
  ["gpt-5.6", openai(5.0, 30.0, 0.1, { write5m: 1.25 })],
  // Anthropic, before 2026: prices from the previous table (Anthropic's pricing page, 2025; not re-read); minimum
  // cacheable prompts from Anthropic's prompt-caching page as last read for that table: 1,024 on Sonnet and Opus 4 and
  // 4.1, 4,096 on Opus 4.5 and later and Haiku 4.5, 2,048 on Haiku 3 and 3.5.
  ["claude-opus-4-5", claude(5, 25, { minCacheTokens: 4096 })],
  ["claude-opus-4-6", claude(5, 25, { minCacheTokens: 4096 })],
  ["claude-opus-4-7", claude(5, 25, { minCacheTokens: 4096 })],
  ["claude-opus-4-8", claude(5, 25, { minCacheTokens: 4096 })],
  ["claude-opus-4", claude(15, 75, { minCacheTokens: 1024 })],
  ["claude-sonnet-4", claude(3, 15, { minCacheTokens: 1024 })],
  ["claude-haiku-4-5", claude(1, 5, { minCacheTokens: 4096 })],
  ["claude-3-5-haiku", claude(0.8, 4, { minCacheTokens: 2048 })],
  ["claude-3-haiku", claude(0.25, 1.25, { minCacheTokens: 2048 })],
  // Sonnet 5: $3/$15 from 2026-09-01, minimum 1,024 (synthorai.io on dev.to, read 2026-12-06). Sonnet 5.5: reads at
  // 0.05× from 2026-10-07 (the issue); no page with its list price or minimum was found: Sonnet 5's are used.
  ["claude-sonnet-5", claude(3, 15, { minCacheTokens: 1024 })],
  ["claude-sonnet-5-5", claude(3, 15, { read: 0.05, minCacheTokens: 1024 })],
  // Fable 5 and Mythos 5: $10/$50, a 1M window (Anthropic's launch docs as quoted by dev.to/tokenmixai and
  // claudefable5.online, 2026-06-10; read 2026-12-06). 5.1: reads at 0.025× (the issue); 5.2: a 1M window (the issue),
  // its read price as 5.1's (none found). No minimum cacheable prompt was found for either.
  ["claude-fable-5", claude(10, 50, { window: MILLION })],
  ["claude-mythos-5", claude(10, 50, { window: MILLION })],
  ["claude-fable-5-1", claude(10, 50, { read: 0.025, window: MILLION })],
  ["claude-mythos-5-1", claude(10, 50, { read: 0.025, window: MILLION })],
  ["claude-fable-5-2", claude(10, 50, { read: 0.025, window: MILLION })],
  // Gemini (prompts up to 200k tokens): prices from the previous table (Google's pricing page, 2025; not re-read);
  // implicit caching from 1,024 tokens on 2.5 Flash and 2,048 on 2.5 Pro (Google's caching page as last read), from
  // 4,096 on Gemini 3 (the issue).
  ["gemini-2.5-pro", gemini(1.25, 10.0, 0.1, 2048)],
  ["gemini-2.5-flash-lite", gemini(0.1, 0.4, 0.1, 1024)],
  ["gemini-2.5-flash", gemini(0.3, 2.5, 0.1, 1024)],
  ["gemini-2.0-flash-lite", gemini(0.075, 0.3, 1)],
  ["gemini-2.0-flash", gemini(0.1, 0.4, 0.25)],
  ["gemini-3-pro", gemini(2.0, 12.0, 0.1, 4096)],
  ["gemini-3-flash", gemini(0.5, 3.0, 0.1, 4096)],
];

const SORTED = [...MODEL_FAMILIES].sort((a, b) => b[0].length - a[0].length);

/** The family of `modelId` (a `provider/` prefix ignored; a dated or suffixed id matches its family), if known. */
export function modelFamily(modelId: string): ModelFamily | undefined {
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  return SORTED.find(([prefix]) => id === prefix || id.startsWith(`${prefix}-`))?.[1];
}

export type AnthropicCacheTtl = "5m" | "1h";

/** HINTLINE_ANTHROPIC_CACHE_TTL: "1h" asks Anthropic for its 1-hour cache; anything else is the default 5 minutes. */
export function anthropicCacheTtl(env: Record<string, string | undefined> = process.env): AnthropicCacheTtl {
  return env.HINTLINE_ANTHROPIC_CACHE_TTL?.trim().toLowerCase() === "1h" ? "1h" : "5m";
}

export const CACHE_TTL_MS: Record<AnthropicCacheTtl, number> = { "5m": 5 * 60_000, "1h": 60 * 60_000 };

/** The shortest prompt the model's provider caches, where the table knows it. */
export function minCacheTokens(modelId: string): number | undefined {
  return modelFamily(modelId)?.minCacheTokens;
}

/** How long a call's cache entries live unused, where the provider states it: Anthropic's TTL in force. */
export function cacheTtlMs(
  provider: string,
  env: Record<string, string | undefined> = process.env,
): number | undefined {
  return provider === "anthropic" ? CACHE_TTL_MS[anthropicCacheTtl(env)] : undefined;
}

/**
 * The model's minimum cacheable prompt, when it explains a call's zero cache read: the call's whole input was shorter
 * (the provider caches nothing below it and says nothing). Not a cache break: a reason shown beside the figures.
 */
export function belowCacheFloor(
  modelId: string | undefined,
  call: { inputTokens: number; cachedInputTokens: number },
): number | undefined {
  const floor = modelId === undefined ? undefined : minCacheTokens(modelId);
  return floor !== undefined && call.cachedInputTokens === 0 && call.inputTokens < floor ? floor : undefined;
}
