// The output tokens one model call may ask for, by model family (apart from choosing a model: ./choice.ts).
import type { Env } from "./fetch.ts";

export const DEFAULT_MAX_REPLY_TOKENS = 32_768;

/** Output maxima of model families that are not tied to the context window (asking for more is refused). */
const OUTPUT_MAXIMA: ReadonlyArray<readonly [RegExp, number]> = [
  [/^gpt-4o/, 16_384],
  [/^gpt-4\.1/, 32_768],
  [/^(gpt-5|o[134])/, 100_000],
  [/^claude-3-haiku/, 4_096],
  [/^claude-opus-4(-[01])?($|-\d{8}$)/, 32_000],
  [/^claude-/, 64_000],
  [/^gemini-/, 65_536],
];

/**
 * The output tokens one model call may produce, sent to the provider: HINTLINE_MAX_REPLY_TOKENS when set, else
 * 32,768 within the model's own maximum for the families known here. Other models get no limit from the default (a
 * local server refuses a limit beyond its context window); the reply's character ceiling holds for all.
 */
export function replyTokenCeiling(modelId: string, env: Env = process.env): number | undefined {
  const configured = Math.floor(Number(env.HINTLINE_MAX_REPLY_TOKENS?.trim() || Number.NaN));
  if (Number.isSafeInteger(configured) && configured > 0) return configured;
  const id = modelId.toLowerCase().replace(/^.*\//, "");
  const maximum = OUTPUT_MAXIMA.find(([family]) => family.test(id))?.[1];
  return maximum === undefined ? undefined : Math.min(DEFAULT_MAX_REPLY_TOKENS, maximum);
}
