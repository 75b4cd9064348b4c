// Before a reply: how full the context is, compression when it reached the trigger, and the model messages the
// first call starts from (summary, then the kept tail).
import type { LanguageModel, ModelMessage } from "ai";
import { automaticCompressionDue, keepBudgetOf } from "../agent/compression-hold.ts";
import type { Settings } from "../agent/settings.ts";
import type { ChatChunk, ChatMessage, ContextUsage, McpToolTokens } from "../chat-message.ts";
import type { AgentState } from "./agent-state.ts";
import {
  type CompressionState,
  compressContext,
  settleStoredCompression,
  summaryModelMessages,
  tailStart,
} from "./compression.ts";
import { measureContext } from "./context-measure.ts";
import { type FixedPart, fixedOf } from "./fixed-part.ts";
import { convertOptionsFor, modelMessagesOf } from "./model-messages.ts";

export type PreparedContext = {
  compression?: CompressionState;
  usage: ContextUsage;
  /** The figure again with the reply written so far, after `current` (a compression the reply made) if given. */
  usageWith: (reply: ChatMessage, current?: CompressionState) => ContextUsage;
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
  fixed,
  history,
  agentState,
  mcpTools,
  onCompressed,
}: {
  conversationId: string;
  model: LanguageModel;
  settings: Settings;
  contextWindow: number;
  /** The fixed part now: the system prompt and the tools (a compression refreshes its workspace: see onCompressed). */
  fixed: () => FixedPart;
  history: ChatMessage[];
  agentState: AgentState;
  /** The conversation's MCP tools, counted with Hintline's own. */
  mcpTools?: McpToolTokens;
  /** After a compression was stored here, before the figure is measured again. */
  onCompressed?: () => Promise<void>;
}): Promise<PreparedContext> {
  let compression = agentState.compression;
  const fixedNow = () => fixedOf(fixed());
  const measure = () => measureContext({ settings, contextWindow, ...fixedNow(), history, compression, mcpTools });
  let usage = measure();
  const prelude: ChatChunk[] = [];
  const due = automaticCompressionDue({
    inputTokens: usage.inputTokens,
    contextWindow,
    triggerRatio: settings.context.triggerRatio,
    reserveRatio: settings.context.reserveRatio,
    left: compression?.left,
  });
  if (due) {
    const result = await compressContext({
      conversationId,
      model,
      settings,
      contextWindow,
      history,
      state: compression,
      tokensBefore: usage.inputTokens,
      keepTokens: keepBudgetOf(usage, settings.context),
    });
    if (result) {
      compression = result.state;
      await onCompressed?.();
      usage = measure();
      const settled = await settleStoredCompression(conversationId, compression, usage, settings);
      compression = settled.state;
      prelude.push({
        type: "data-compression",
        id: `compression-${result.data.createdAt}`,
        data: { ...result.data, tokensAfter: usage.inputTokens, ...(settled.stuck ? { stuck: settled.stuck } : {}) },
      });
    }
  }
  const start = tailStart(history, compression);
  const tail = history.slice(start);
  const usageWith = (reply: ChatMessage, current = compression) =>
    measureContext({
      settings,
      contextWindow,
      ...fixedNow(),
      history,
      compression: current,
      start: current === compression ? start : undefined,
      reply,
      mcpTools,
    });
  return {
    compression,
    usage,
    usageWith,
    tail,
    modelMessages: summaryModelMessages(compression).concat(modelMessagesOf(tail, convertOptionsFor(settings))),
    prelude,
  };
}
