// The demo model's Regenerate: a reply generated again is told its attempt (providerOptions, lib/chat/reply/run.ts)
// and worded anew by it — an essay from other words, any other answer opened differently — so the person sees
// Regenerate do something. Deterministic: the same input and attempt give the same words.
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { DEMO_ATTEMPT_OPTIONS } from "./demo-model-id.ts";

const REWORDINGS = [
  "Let me put that another way.",
  "Here is another take.",
  "Once more, in other words.",
  "Trying a different wording.",
];

/** The attempt a call says it is (0: the first, or a value that is not a whole number ≥ 0). */
export function attemptOf(options: Pick<LanguageModelV4CallOptions, "providerOptions">): number {
  const attempt = options.providerOptions?.[DEMO_ATTEMPT_OPTIONS]?.attempt;
  return typeof attempt === "number" && Number.isSafeInteger(attempt) && attempt > 0 ? attempt : 0;
}

/** An answer as attempt `attempt` words it: the first attempt's as it is, a later one with its own opening line. */
export function reworded(text: string, attempt: number): string {
  return attempt > 0 ? `${REWORDINGS[(attempt - 1) % REWORDINGS.length]}\n\n${text}` : text;
}
