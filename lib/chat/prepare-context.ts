// Before a reply: how full the context is, compression when it reached the trigger, and the model messages the
// first call starts from (summary, then the kept tail).
import type { LanguageModel, ModelMessage } from "ai";
import { shouldCompress } from "../agent/compression.ts";
import type { Settings } from "../agent/settings.ts";
import { toolDefinitionTokens } from "../ai/tools/index.ts";
import type { ChatChunk, ChatMessage, ContextUsage } from "../chat-message.ts";
import type { AgentState } from "./agent-state.ts";
import { type CompressionState, compressContext, summaryModelMessages, tailStart } from "./compression.ts";
import { contextUsageFor } from "./context-usage.ts";
import { modelMessagesOf } from "./model-messages.ts";

export type PreparedContext = {
  compression?: CompressionState;
  usage: ContextUsage;
  /** The stored messages still in the model context. */
  tail: ChatMessage[];
  modelMessages: ModelMessage[];
  prelude: ChatChunk[];
};

export async function prepareContext({
  conversationId,
  model,
  settings,
  contextWindow,
  system,
  history,
  agentState,
  force = false,
}: {
  conversationId: string;
  model: LanguageModel;
  settings: Settings;
  contextWindow: number;
  system: string;
  history: ChatMessage[];
  agentState: AgentState;
  /** Compress even below the trigger (the person asked for it). */
  force?: boolean;
}): Promise<PreparedContext> {
  let compression = agentState.compression;
  let last = agentState.lastCall;
  const measure = () =>
    contextUsageFor({
      settings,
      contextWindow,
      system,
      summary: compression?.summary,
      history,
      tailStart: tailStart(history, compression),
      last,
      tools: toolDefinitionTokens(),
    });
  let usage = measure();
  const prelude: ChatChunk[] = [];
  if (force || shouldCompress(usage.inputTokens, settings.context.triggerRatio, contextWindow)) {
    const result = await compressContext({
      conversationId,
      model,
      settings,
      contextWindow,
      history,
      state: compression,
      tokensBefore: usage.inputTokens,
    });
    if (result) {
      compression = result.state;
      last = undefined;
      usage = measure();
      prelude.push({ type: "data-compression", id: `compression-${result.data.createdAt}`, data: { ...result.data, tokensAfter: usage.inputTokens } });
    }
  }
  const tail = history.slice(tailStart(history, compression));
  return { compression, usage, tail, modelMessages: summaryModelMessages(compression).concat(modelMessagesOf(tail)), prelude };
}
