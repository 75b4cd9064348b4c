import type { StepUsage } from "../../agent/reply-loop.ts";

/**
 * The step's token figures when they can be true: whole numbers from 0 up to a few times the context window (a call
 * cannot take or give more than its window; a figure past 4× it means the report is wrong, and the local count is
 * the better one), and no more cached input than input. Otherwise none: the meter and the hints then count locally,
 * and the call is recorded without figures.
 */
export function plausibleUsage(
  usage: StepUsage,
  contextWindow: number,
): { inputTokens: number; cachedInputTokens?: number; cacheWriteTokens?: number; outputTokens: number } | undefined {
  const ceiling = 4 * contextWindow;
  const ok = (n: number | undefined) => n === undefined || (Number.isSafeInteger(n) && n >= 0 && n <= ceiling);
  if (
    !usage.inputTokens ||
    !ok(usage.inputTokens) ||
    !ok(usage.outputTokens) ||
    !ok(usage.cachedInputTokens) ||
    !ok(usage.cacheWriteTokens)
  )
    return undefined;
  if ((usage.cachedInputTokens ?? 0) + (usage.cacheWriteTokens ?? 0) > usage.inputTokens) return undefined;
  return {
    inputTokens: usage.inputTokens,
    ...(usage.cachedInputTokens === undefined ? {} : { cachedInputTokens: usage.cachedInputTokens }),
    // Only where the provider reports writes (Anthropic); 0 is not a figure worth storing on every OpenAI call.
    ...(usage.cacheWriteTokens ? { cacheWriteTokens: usage.cacheWriteTokens } : {}),
    outputTokens: usage.outputTokens ?? 0,
  };
}
