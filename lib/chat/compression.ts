// Compressing a conversation's model context: the older messages become a five-section summary made by the same
// model (or a fixed truncation note when that fails); the newest messages that fit the reserve stay. The person's
// visible history is never touched — only what the model is sent.
import { generateText, type LanguageModel, type ModelMessage } from "ai";
import { formatInTimeZone } from "date-fns-tz";
import {
  COMPRESSION_REQUEST_MARKER,
  compressionPrompt,
  SUMMARIZER_INSTRUCTIONS,
  splitForCompression,
  summaryMessageText,
  truncationSummary,
} from "../agent/compression.ts";
import { isValidTimeZone, type Settings } from "../agent/settings.ts";
import { countTokens } from "../agent/token-count.ts";
import { toModelMessages } from "../agent/to-model-messages.ts";
import type { ChatMessage, CompressionData } from "../chat-message.ts";
import { patchAgentState } from "./agent-state.ts";
import { messageTokens } from "./context-usage.ts";

export type CompressionState = { summary: string; keptFromId: string; summarizedCount: number };

/** Where the model context starts in the stored history. */
export function tailStart(history: readonly ChatMessage[], state?: CompressionState): number {
  if (!state) return 0;
  const index = history.findIndex((m) => m.id === state.keptFromId);
  return index >= 0 ? index : Math.min(state.summarizedCount, history.length);
}

const summaryMessages = new Map<string, ModelMessage>();
const SUMMARY_MESSAGES_KEPT = 64;

/**
 * The summary as the model context's first message: the same object for the same summary, so the conversion kept
 * per conversation (lib/agent/converted-prefix.ts, keyed by that first message) is found again on the next call.
 */
export function summaryModelMessages(state?: CompressionState): ModelMessage[] {
  if (!state) return [];
  let message = summaryMessages.get(state.summary);
  if (!message) {
    message = { role: "user", content: summaryMessageText(state.summary) };
    if (summaryMessages.size >= SUMMARY_MESSAGES_KEPT) summaryMessages.delete(summaryMessages.keys().next().value as string);
    summaryMessages.set(state.summary, message);
  }
  return [message];
}

export async function compressContext({
  conversationId,
  model,
  settings,
  contextWindow,
  history,
  state,
  tokensBefore,
  now = new Date(),
  commit = true,
}: {
  conversationId: string;
  model: LanguageModel;
  settings: Settings;
  contextWindow: number;
  history: readonly ChatMessage[];
  state?: CompressionState;
  tokensBefore: number;
  now?: Date;
  /** false: only compute it; the caller stores `state` if it wants it (lib/chat/compact-now.ts). */
  commit?: boolean;
}): Promise<{ state: CompressionState; data: CompressionData } | null> {
  const start = tailStart(history, state);
  const tail = history.slice(start);
  const reserve = settings.context.reserveRatio * contextWindow;
  const { summarize, keep } = splitForCompression(tail, messageTokens, reserve);
  if (!summarize.length || !keep.length) return null;
  const zone = isValidTimeZone(settings.injection.timezone) ? settings.injection.timezone : "UTC";
  const nowText = `${formatInTimeZone(now, zone, "yyyy-MM-dd HH:mm")} ${settings.injection.timezone}`;
  let summary: string;
  let usage: CompressionData["usage"];
  let fallback = false;
  try {
    const result = await generateText({
      model,
      instructions: SUMMARIZER_INSTRUCTIONS,
      messages: [{ role: "user", content: compressionPrompt({ previousSummary: state?.summary, messages: toModelMessages(summarize), now: nowText }) }],
      maxRetries: 1,
    });
    summary = result.text.trim();
    usage = { inputTokens: result.usage.inputTokens ?? 0, outputTokens: result.usage.outputTokens ?? 0 };
    if (!summary || summary.startsWith(COMPRESSION_REQUEST_MARKER)) throw new Error("empty summary");
  } catch {
    summary = truncationSummary(start + summarize.length, nowText);
    fallback = true;
  }
  const next: CompressionState = { summary, keptFromId: keep[0]!.id, summarizedCount: start + summarize.length };
  const tokensAfter =
    countTokens(summaryMessageText(summary)) + keep.reduce((n, m) => n + messageTokens(m), 0);
  if (commit) await patchAgentState(conversationId, { compression: next, lastCall: undefined });
  return {
    state: next,
    data: {
      tokensBefore,
      tokensAfter,
      summarizedMessages: summarize.length,
      keptMessages: keep.length,
      fallback,
      ...(usage ? { usage } : {}),
      summary,
      createdAt: now.toISOString(),
    },
  };
}
