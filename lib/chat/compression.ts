// Compressing a conversation's model context: the older messages become a five-section summary made by the same
// model (or, when that fails, the previous summary with a fixed truncation note); the newest messages that fit the
// reserve stay. The person's visible history is never touched — only what the model is sent. What is summarised
// goes to the summariser in pieces that each fit its window, the running summary carried from one to the next.
import { markConversationMcpToolsStale } from "../db/conversation-mcp-tools.ts";
import { generateText, type LanguageModel, type ModelMessage } from "ai";
import { formatInTimeZone } from "date-fns-tz";
import {
  COMPRESSION_REQUEST_MARKER,
  compressionPrompt,
  cutUtf8,
  fallbackSummary,
  SUMMARIZER_INSTRUCTIONS,
  splitForCompression,
  splitTranscript,
  summaryMessageText,
  transcript,
} from "../agent/compression.ts";
import { settleCompression } from "../agent/compression-hold.ts";
import { boundLedger, collectLedger, type LedgerSource, ledgerBudget } from "../agent/evidence-ledger.ts";
import { isValidTimeZone, type Settings } from "../agent/settings.ts";
import { countTokens } from "../agent/token-count.ts";
import type { ChatMessage, CompressionData, CompressionStuck, ContextUsage } from "../chat-message.ts";
import { now as clockNow } from "../clock.ts";
import { harnessOptions } from "../harness-options.ts";
import { toolOutputText } from "../tool-output.ts";
import { type CompressionState, patchAgentState } from "./agent-state.ts";
import {
  factsTarget,
  notYetOffered,
  type ProposedFacts,
  proposeFacts,
  rememberCompressionFacts,
} from "./compression-memory.ts";
import { memorySourceLines } from "../agent/compression-memory.ts";
import { messageTokens, stampedMessageTokens } from "./context-usage.ts";
import { convertOptionsFor, modelMessagesOf } from "./model-messages.ts";
import { logFailure } from "../log/logger.ts";
import { sharedBoundedMap } from "../bounded-map.ts";
import { promptCacheOptions } from "../ai/prompt-cache-key.ts";

export type { CompressionState };

/** Where the model context starts in the stored history. */
export function tailStart(history: readonly ChatMessage[], state?: CompressionState): number {
  if (!state) return 0;
  const index = history.findIndex((m) => m.id === state.keptFromId);
  return index >= 0 ? index : Math.min(state.summarizedCount, history.length);
}

const summaryMessages = sharedBoundedMap<string, ModelMessage>("summary-messages", {
  maxEntries: 64,
  maxBytes: 8 * 1024 * 1024,
  sizeOf: (text) => 4 * text.length, // the key and the message's content are the same text
});

/**
 * The summary as the model context's first message: the same object for the same summary, so that what is kept per
 * model message (token counts, the cache-break detector's comparison) is found again on the next call.
 */
export function summaryModelMessages(state?: CompressionState): ModelMessage[] {
  if (!state) return [];
  const text = summaryMessageText(state.summary, state.ledger);
  let message = summaryMessages.get(text);
  if (!message) {
    message = { role: "user", content: text };
    summaryMessages.set(text, message);
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
  keepTokens,
  now = clockNow(),
  commit = true,
}: {
  conversationId: string;
  model: LanguageModel;
  settings: Settings;
  contextWindow: number;
  history: readonly ChatMessage[];
  state?: CompressionState;
  tokensBefore: number;
  /** What the kept messages may take (lib/agent/compression-hold.ts's keepBudget); the reserve when not given. */
  keepTokens?: number;
  now?: Date;
  /** false: only compute it; the caller stores `state` if it wants it (lib/chat/compact-now.ts). */
  commit?: boolean;
}): Promise<{
  state: CompressionState;
  data: CompressionData;
  /** Stores the durable facts proposed meanwhile (done here when `commit`); undefined when that is off. */
  remember?: () => Promise<NonNullable<CompressionData["memory"]>>;
} | null> {
  const start = tailStart(history, state);
  const tail = history.slice(start);
  const reserve = keepTokens ?? settings.context.reserveRatio * contextWindow;
  const { summarize, keep } = splitForCompression(tail, messageTokens, reserve);
  if (!summarize.length || !keep.length) return null;
  const count = start + summarize.length;
  // The durable facts are asked for alongside the summary: the compression waits for the longer of the two calls.
  const facts = proposeCompressionFacts({ conversationId, model, contextWindow, history, summarize });
  facts.catch(() => {}); // a failed read is thrown where it is awaited, below, not reported as unhandled meanwhile
  const { summary, usage, fallback } = await summarizeOrTruncate({
    conversationId,
    model,
    settings,
    contextWindow,
    previous: state?.summary,
    summarize,
    count,
    now,
  });
  // Made by code, so a failed summary still gets it (with the previous ledger carried on).
  const evidence = harnessOptions().ledger ? nextLedger(summarize, state, contextWindow) : {};
  // The window the person was told about stays told; the figure this one leaves is measured by the caller.
  const told = state?.stuckToldFor !== undefined ? { stuckToldFor: state.stuckToldFor } : {};
  const next: CompressionState = { summary, keptFromId: keep[0]!.id, summarizedCount: count, ...evidence, ...told };
  const tokensAfter =
    countTokens(summaryMessageText(summary, next.ledger)) + keep.reduce((n, m) => n + messageTokens(m), 0);
  const proposed = await facts;
  const remember = proposed ? () => rememberCompressionFacts(conversationId, proposed, keep[0]!.id) : undefined;
  let memory: CompressionData["memory"];
  if (commit) {
    await patchAgentState(conversationId, { compression: next, lastCall: undefined });
    // The prompt's cached prefix is rewritten anyway: the next reply takes in the workspace's MCP tools as they are.
    await markConversationMcpToolsStale({ conversationId });
    memory = await remember?.();
  }
  return {
    ...(commit || !remember ? {} : { remember }),
    state: next,
    data: {
      tokensBefore,
      tokensAfter,
      summarizedMessages: summarize.length,
      keptMessages: keep.length,
      fallback,
      ...(usage ? { usage } : {}),
      summary,
      ...evidence,
      ...(memory ? { memory } : {}),
      createdAt: now.toISOString(),
    },
  };
}

/**
 * The durable facts proposed from what is summarised: only the person's and the agent's own words
 * (lib/agent/compression-memory.ts's memorySourceLines), and only those not offered before (at an earlier compression
 * or when the conversation ended). None when the workspace keeps no facts or nothing is new.
 */
async function proposeCompressionFacts({
  conversationId,
  model,
  contextWindow,
  history,
  summarize,
}: {
  conversationId: string;
  model: LanguageModel;
  contextWindow: number;
  history: readonly ChatMessage[];
  summarize: readonly ChatMessage[];
}): Promise<ProposedFacts | undefined> {
  const target = await factsTarget(conversationId);
  if (!target) return undefined;
  const lines = memorySourceLines(await notYetOffered(conversationId, history, summarize, target.from));
  if (!lines.length) return undefined;
  return proposeFacts({ conversationId, ...target, model, contextWindow, lines, when: "compression" });
}

/** The summary of `summarize` (with the previous one), or the truncation note when summarising failed. */
async function summarizeOrTruncate({
  conversationId,
  model,
  settings,
  contextWindow,
  previous,
  summarize,
  count,
  now,
}: {
  conversationId: string;
  model: LanguageModel;
  settings: Settings;
  contextWindow: number;
  previous: string | undefined;
  summarize: readonly ChatMessage[];
  count: number;
  now: Date;
}): Promise<{ summary: string; usage?: CompressionData["usage"]; fallback: boolean }> {
  const zone = isValidTimeZone(settings.injection.timezone) ? settings.injection.timezone : "UTC";
  const nowText = `${formatInTimeZone(now, zone, "yyyy-MM-dd HH:mm")} ${settings.injection.timezone}`;
  try {
    const result = await summarizeInPieces({
      conversationId,
      model,
      contextWindow,
      previous,
      messages: summarize,
      settings,
      now: nowText,
    });
    return { summary: result.summary, usage: result.usage, fallback: false };
  } catch (error) {
    logFailure("a compression's summary failed; the truncation note is used", { conversationId })(error);
    // Pieces summarised before the failure are kept: they are a summary of what came before the note.
    return {
      summary: fallbackSummary((error as { partial?: string }).partial ?? previous, count, nowText),
      fallback: true,
    };
  }
}

/** What a stored message says, as text to find identifiers in (hints are the harness's own words: left out). */
export function evidenceText(message: ChatMessage): string {
  const texts: string[] = [];
  for (const part of message.parts) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type.startsWith("tool-")) {
      const tool = part as { input?: unknown; output?: unknown; errorText?: string };
      // A built-in tool's result is read as the text the model read, not as its data's JSON.
      const output =
        tool.output === undefined
          ? undefined
          : (toolOutputText(part.type.slice("tool-".length), tool.output) ?? tool.output);
      for (const value of [tool.input, output, tool.errorText]) {
        if (value !== undefined) texts.push(typeof value === "string" ? value : JSON.stringify(value));
      }
    }
  }
  return texts.join("\n");
}

/**
 * A message as the summariser reads it: as the model received it, so with timestamps on the person's messages and the
 * tool results keep their `[yyyy-MM-dd HH:mm:ss]` stamps and the summary can say when things happened.
 */
export function transcriptLine(message: ChatMessage, settings: Settings): string {
  return transcript(modelMessagesOf([message], convertOptionsFor(settings)));
}

/** The ledger after summarising `messages`: theirs merged with the previous one, pins and dropped items. */
function nextLedger(messages: readonly ChatMessage[], state: CompressionState | undefined, contextWindow: number) {
  const sources: LedgerSource[] = messages.map((m, i) => ({ text: evidenceText(m), position: i + 1 }));
  const pins = (state?.pins ?? []).map((p) => ({ ...p, pinned: true }));
  const previous = [...pins, ...(state?.ledger ?? []), ...(state?.dropped ?? [])];
  return boundLedger(collectLedger(sources, previous), ledgerBudget(contextWindow));
}

/** Room the summariser's answer gets, and the most a running summary may take in the next piece's request. */
const summaryReserve = (contextWindow: number) => Math.min(4096, Math.floor(contextWindow * 0.15));

/**
 * Summarises messages piece by piece, each request within the window: its prompt, the running summary (at most the
 * reserve), the piece and the answer's reserve. Throws (with the summary so far as `partial`) when a piece fails.
 */
async function summarizeInPieces({
  conversationId,
  model,
  contextWindow,
  previous,
  messages,
  settings,
  now,
}: {
  conversationId: string;
  model: LanguageModel;
  contextWindow: number;
  previous?: string;
  messages: readonly ChatMessage[];
  settings: Settings;
  now: string;
}): Promise<{ summary: string; usage: NonNullable<CompressionData["usage"]> }> {
  const reserve = summaryReserve(contextWindow);
  const overhead =
    countTokens(SUMMARIZER_INSTRUCTIONS) +
    countTokens(compressionPrompt({ previousSummary: " ", transcriptText: "", now })) +
    64;
  const budget = Math.floor(contextWindow * 0.95) - overhead - 2 * reserve;
  if (budget < 100)
    throw Object.assign(new Error("the context window is too small to summarise in"), { partial: previous });
  const lines = messages.map((m) => ({ text: transcriptLine(m, settings), tokens: stampedMessageTokens(m, settings) }));
  const usage = { inputTokens: 0, outputTokens: 0 };
  let running = previous !== undefined ? bounded(previous, reserve) : undefined;
  for (const piece of splitTranscript(lines, budget)) {
    try {
      const result = await generateText({
        model,
        instructions: SUMMARIZER_INSTRUCTIONS,
        messages: [
          { role: "user", content: compressionPrompt({ previousSummary: running, transcriptText: piece, now }) },
        ],
        maxOutputTokens: reserve,
        maxRetries: 1,
        providerOptions: promptCacheOptions(conversationId),
      });
      const text = result.text.trim();
      if (!text || text.startsWith(COMPRESSION_REQUEST_MARKER)) throw new Error("empty summary");
      usage.inputTokens += result.usage.inputTokens ?? 0;
      usage.outputTokens += result.usage.outputTokens ?? 0;
      running = bounded(text, reserve);
    } catch (error) {
      throw Object.assign(error instanceof Error ? error : new Error(String(error)), { partial: running });
    }
  }
  if (running === undefined) throw new Error("nothing summarised");
  return { summary: running, usage };
}

/** A summary longer than the reserve (a provider that ignored the output limit) is cut to it. */
function bounded(summary: string, reserve: number): string {
  return summary.length > reserve && countTokens(summary) > reserve ? cutUtf8(summary, reserve)[0]! : summary;
}

/**
 * Stores the figure a compression left, measured once the context was made again (`usage`), and the window the
 * person is told about when it left the context at or over the trigger (lib/agent/compression-hold.ts). Merged into
 * the compression stored now, so that a pin made meanwhile stays.
 */
export async function settleStoredCompression(
  conversationId: string,
  state: CompressionState,
  usage: ContextUsage,
  settings: Settings,
): Promise<{ state: CompressionState; stuck?: CompressionStuck }> {
  const settled = settleCompression(state, usage, settings.context);
  const { left, stuckToldFor } = settled.state;
  await patchAgentState(conversationId, (current) =>
    current.compression?.keptFromId === state.keptFromId
      ? { compression: { ...current.compression, left, ...(stuckToldFor !== undefined ? { stuckToldFor } : {}) } }
      : {},
  );
  return settled;
}
