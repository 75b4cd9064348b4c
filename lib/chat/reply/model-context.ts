// The model context as a reply's steps see it: the compression and the kept tail (a step may compress), and the size of
// the next call's input, counted from the last call's reported figures plus what its step added, never the history.
import type { LanguageModel, ModelMessage } from "ai";
import { keepBudgetOf } from "../../agent/compression-hold.ts";
import { countModelMessageTokens } from "../../agent/context-usage.ts";
import type { StepContext } from "../../agent/reply-loop.ts";
import type { Settings } from "../../agent/settings.ts";
import { type ConvertOptions, toModelMessages } from "../../agent/to-model-messages.ts";
import type { ChatChunk, ChatMessage } from "../../chat-message.ts";
import {
  type CompressionState,
  compressContext,
  settleStoredCompression,
  summaryModelMessages,
  tailStart,
} from "../compression.ts";
import { convertOptionsFor, modelMessagesOf } from "../model-messages.ts";
import type { PreparedContext } from "../prepare-context.ts";

export function createModelContext({
  conversationId,
  model,
  settings,
  contextWindow,
  history,
  context,
  onCompressed,
}: {
  conversationId: string;
  /** The model that compresses (the utility model). */
  model: LanguageModel;
  settings: Settings;
  contextWindow: number;
  history: ChatMessage[];
  context: PreparedContext;
  /** After a compression was stored (the workspace is frozen anew). */
  onCompressed: () => Promise<void>;
}) {
  let compression: CompressionState | undefined = context.compression;
  let tail = context.tail;
  /** The last call's input plus its output, as the provider reported them (or as estimated when it did not). */
  let lastStepTokens = context.usage.inputTokens;
  let reported = false;
  return {
    compression: () => compression,
    /** The stored messages still in the model context. */
    tail: () => tail,
    /** The size of this call's input before anything is appended. */
    inputTokens(step: StepContext): number {
      if (step.stepIndex === 0) return context.usage.inputTokens;
      const tokens = lastStepTokens + tokensOfLastStep(step.reply, reported, convertOptionsFor(settings));
      if (!reported) lastStepTokens = tokens;
      reported = false;
      return tokens;
    },
    /** Compresses now: the compression's record, the context the next call starts from, and its size. */
    async compress(
      inputTokens: number,
      reply: ChatMessage,
    ): Promise<{ chunk: ChatChunk; history: ModelMessage[]; inputTokens: number } | undefined> {
      const compressed = await compressContext({
        conversationId,
        model,
        settings,
        contextWindow,
        history,
        state: compression,
        tokensBefore: inputTokens,
        keepTokens: keepBudgetOf(context.usageWith(reply, compression), settings.context),
      });
      if (!compressed) return undefined;
      await onCompressed();
      // Measured whole, as the next call sends it: the refreshed system prompt, the tools, the reply so far.
      const usage = context.usageWith(reply, compressed.state);
      const settled = await settleStoredCompression(conversationId, compressed.state, usage, settings);
      compression = settled.state;
      tail = history.slice(tailStart(history, compression));
      lastStepTokens = usage.inputTokens;
      const data = {
        ...compressed.data,
        tokensAfter: lastStepTokens,
        ...(settled.stuck ? { stuck: settled.stuck } : {}),
      };
      return {
        chunk: { type: "data-compression", id: `compression-${compressed.data.createdAt}`, data },
        history: summaryModelMessages(compression).concat(modelMessagesOf(tail, convertOptionsFor(settings))),
        inputTokens: lastStepTokens,
      };
    },
    /** A step's call reported its figures. */
    recordStep(inputTokens: number, outputTokens: number): void {
      lastStepTokens = inputTokens + outputTokens;
      reported = true;
    },
  };
}

/**
 * Tokens of the reply's last step that the next call sends on top of the last call's reported input and output: the
 * tool results (and hints) after its step start, or everything after it when the provider reported nothing. Only
 * the last step's parts are converted and counted, never the history.
 */
export function tokensOfLastStep(reply: ChatMessage, outputReported: boolean, convert?: ConvertOptions): number {
  const start = reply.parts.findLastIndex((p) => p.type === "step-start");
  if (start < 0) return 0;
  const added = toModelMessages([{ ...reply, parts: reply.parts.slice(start + 1) }], convert);
  return countModelMessageTokens(outputReported ? added.filter((m) => m.role !== "assistant") : added);
}
