// The reply's step limit: a reply makes at most so many model calls (HINTLINE_MAX_STEPS, or its agent's maxSteps);
// the last is made with tool choice "none" (lib/agent/reply-loop.ts) and told so, so the reply ends with an answer
// built from what the agent has rather than a tool call no one answers. The person sees the limit as a chip.
import type { HintSource } from "../chat-message.ts";

export const STEPS_HINT_SOURCE: HintSource = { label: "System", sublabel: "Steps" };

export function renderStepLimitHint(maxSteps: number): { fields: Record<string, string>; text: string } {
  const text = `This is the last model call this reply may make (${maxSteps} in all), and no tool can be called in it. Answer the person now with what you have, and say what is left to do and that they can ask you to go on.`;
  return { fields: { steps: String(maxSteps) }, text: `<system-reminder>\n${text}\n</system-reminder>` };
}
