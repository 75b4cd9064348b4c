// A conversation's context figure (lib/chat/context-usage.ts) from what it is made of: its settings, its system
// prompt, the tool definitions, its compression state and its messages. The one place the meter, GET /context, the
// context hint and the live usage chunks get it from.
import { summaryWithLedger } from "../agent/compression.ts";
import type { Settings } from "../agent/settings.ts";
import { modelInfoFor } from "../ai/providers/choice.ts";
import type { ChatMessage, ContextUsage, McpToolTokens } from "../chat-message.ts";
import { type CompressionState, tailStart } from "./compression.ts";
import { contextUsageFor } from "./context-usage.ts";

/** The window a conversation's context is measured against: its settings' override, else its model's window. */
export function contextWindowFor(settings: Settings, model: string | null | undefined): number {
  return settings.context.contextWindow ?? modelInfoFor(model).contextWindow;
}

export function measureContext({
  settings,
  history,
  compression,
  system,
  model,
  contextWindow = contextWindowFor(settings, model),
  start = tailStart(history, compression),
  toolTokens,
  mcpTools,
  reply,
}: {
  settings: Settings;
  /** Every stored message of the conversation. */
  history: readonly ChatMessage[];
  compression?: CompressionState;
  /** The system prompt's text (lib/chat/system-prompt.ts, with the conversation's frozen workspace). */
  system: string;
  /** The conversation's model (null: the default), whose window applies unless `contextWindow` is given. */
  model?: string | null;
  contextWindow?: number;
  /** Where the model context starts in `history`, when the caller knows it already. */
  start?: number;
  /** A reply being written, not yet in `history`. */
  reply?: ChatMessage;
  /** What the built-in tools' definitions cost (lib/chat/fixed-part.ts). */
  toolTokens: number;
  /** The conversation's MCP tools (lib/chat/mcp-tool-tokens.ts). */
  mcpTools?: McpToolTokens;
}): ContextUsage {
  return contextUsageFor({
    settings,
    contextWindow,
    system,
    summary: compression && summaryWithLedger(compression.summary, compression.ledger),
    history,
    tailStart: start,
    tools: toolTokens,
    mcpTools,
    reply,
  });
}
