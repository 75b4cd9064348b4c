// No compression turn after turn: after a compression, the next automatic one waits until the input has grown by a real
// amount since the figure it left (a compression that could not get under the trigger would only repeat itself, one
// summary call per turn), unless the input no longer fits the window. The first time a compression leaves the context
// at or over the trigger for a window, the person is told what fills it and what to do. Pure, with no runtime import:
// the compression chip renders the notice with it in the browser.
import type { CompressionStuck, ContextUsage } from "../chat-message.ts";

/** Inclusive: compression fires when the input reaches the trigger. */
export function shouldCompress(inputTokens: number, triggerRatio: number, contextWindow: number): boolean {
  return inputTokens >= triggerRatio * contextWindow;
}

/** The full input (system prompt and tools included) as measured right after a compression, and its window. */
export type CompressionLeft = { inputTokens: number; contextWindow: number };

/** What a compression state keeps for the hold: the figure it left, and the window the person was told about. */
export type HoldFields = { left?: CompressionLeft; stuckToldFor?: number };

/**
 * The least growth that counts as real, as a share of the window (the reserve, when it is larger): the room the
 * summary itself may take (lib/chat/compression.ts gives the summariser's answer 15 % of the window). Measured on the
 * demo model at 4,096 tokens with a fixed part of 72 %, 120-word turns add ~220 tokens: the reserve (410) let a
 * compression come every second turn, this every third.
 */
export const MIN_GROWTH_RATIO = 0.15;
/** From this share of the window on, the input would soon not fit at all: it is compressed whatever it grew by. */
export const OVERFLOW_RATIO = 0.95;

/** How many tokens the input must grow by, after a compression, before the next automatic one. */
export function growthNeeded(reserveRatio: number, contextWindow: number): number {
  return Math.ceil(Math.max(reserveRatio, MIN_GROWTH_RATIO) * contextWindow);
}

/**
 * Whether an automatic compression is due: the input reached the trigger and, after an earlier compression measured
 * against the same window, it grew by `growthNeeded` since the figure that one left, or it reached OVERFLOW_RATIO of
 * the window. Without such a figure (a state stored before it was kept, another window) the trigger alone decides.
 */
export function automaticCompressionDue({
  inputTokens,
  contextWindow,
  triggerRatio,
  reserveRatio,
  left,
}: {
  inputTokens: number;
  contextWindow: number;
  triggerRatio: number;
  reserveRatio: number;
  left?: CompressionLeft;
}): boolean {
  if (!shouldCompress(inputTokens, triggerRatio, contextWindow)) return false;
  if (!left || left.contextWindow !== contextWindow) return true;
  if (inputTokens >= OVERFLOW_RATIO * contextWindow) return true;
  return inputTokens - left.inputTokens >= growthNeeded(reserveRatio, contextWindow);
}

/**
 * The tokens the messages kept verbatim may take: the reserve, or less when the fixed part (system prompt and tools)
 * and the summary leave less room than that under the trigger — a compression that keeps the reserve there would leave
 * the context over the trigger. The newest message is kept whatever this says (splitForCompression).
 */
export function keepBudget({
  contextWindow,
  triggerRatio,
  reserveRatio,
  fixedTokens,
  summaryTokens,
}: {
  contextWindow: number;
  triggerRatio: number;
  reserveRatio: number;
  fixedTokens: number;
  summaryTokens: number;
}): number {
  const room = Math.floor(triggerRatio * contextWindow) - fixedTokens - summaryTokens;
  return Math.max(0, Math.min(reserveRatio * contextWindow, room));
}

/** keepBudget for a context as measured (its breakdown: the fixed part and the summary it has now). */
export function keepBudgetOf(
  usage: ContextUsage,
  { triggerRatio, reserveRatio }: { triggerRatio: number; reserveRatio: number },
): number {
  const parts = usage.breakdown;
  if (!parts) return reserveRatio * usage.contextWindow;
  return keepBudget({
    contextWindow: usage.contextWindow,
    triggerRatio,
    reserveRatio,
    fixedTokens: parts.system + parts.tools,
    summaryTokens: parts.summary,
  });
}

/**
 * The state after a compression, with the figure it left; and, when that figure is at or over the trigger and the
 * person was not yet told for this window, what fills the context (told once: the state remembers the window).
 */
export function settleCompression<S extends HoldFields>(
  state: S,
  usage: ContextUsage,
  { triggerRatio, reserveRatio }: { triggerRatio: number; reserveRatio: number },
): { state: S; stuck?: CompressionStuck } {
  const { contextWindow, inputTokens } = usage;
  const settled: S = { ...state, left: { inputTokens, contextWindow } };
  if (!shouldCompress(inputTokens, triggerRatio, contextWindow) || state.stuckToldFor === contextWindow)
    return { state: settled };
  const parts = usage.breakdown ?? { system: 0, tools: 0, summary: 0, messages: 0, hints: 0 };
  return {
    state: { ...settled, stuckToldFor: contextWindow },
    stuck: {
      contextWindow,
      inputTokens,
      triggerTokens: Math.floor(triggerRatio * contextWindow),
      growthTokens: growthNeeded(reserveRatio, contextWindow),
      breakdown: { ...parts },
    },
  };
}

const figure = (tokens: number) => tokens.toLocaleString("en-US");

/** The notice in words: what fills the window, why compressing again would not help, and what the person can do. */
export function stuckNoticeText(stuck: CompressionStuck): { what: string; todo: string[] } {
  const { system, tools, summary, messages, hints } = stuck.breakdown;
  const what =
    `After compressing, the context still holds ${figure(stuck.inputTokens)} of this model's ` +
    `${figure(stuck.contextWindow)} tokens, over the ${figure(stuck.triggerTokens)} at which it is compressed: ` +
    `the system prompt takes ${figure(system)}, the tool definitions ${figure(tools)}, the summary ` +
    `${figure(summary)} and the messages kept ${figure(messages + hints)}. Compressing again would not make room, ` +
    `so the next compression waits until the conversation has grown by about ${figure(stuck.growthTokens)} tokens.`;
  return {
    what,
    todo: [
      "Give the model a larger context window on its server (for Ollama: OLLAMA_CONTEXT_LENGTH, or num_ctx in the model's settings), or pick a model with a larger window.",
      "Turn off the tools and MCP servers this conversation does not need.",
      "Shorten the workspace: its instructions, its memory and its knowledge index.",
    ],
  };
}
