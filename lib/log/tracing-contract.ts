// What the reply code's tracing calls (tracing.ts) ask of the SDK once it is started (tracing-sdk.ts).
import type { HintSource } from "../chat-message.ts";

/** The reply a trace is of; `parent`: the W3C traceparent of the span that started it (a child's AgentSpawn). */
export type ReplyTraceInfo = {
  conversationId: string;
  replyId: string;
  /** A subagent's agent id (none: the person's conversation). */
  agent?: string;
  parent?: string;
  resumed?: boolean;
};

/** A tool call the reply loop runs itself (one the person approved): the AI SDK traces every other. */
export type TracedToolCall = { toolName: string; toolCallId: string; input: unknown };

/** What the reply tells its span as it ends. */
export type ReplyTrace = { outcome: (status: string, steps: number) => void };

export type TracingRuntime = {
  traceReply: <T>(info: ReplyTraceInfo, run: (trace: ReplyTrace) => Promise<T>) => Promise<T>;
  hint: (source: HintSource) => void;
  toolCall: <T>(call: TracedToolCall, run: () => Promise<T>) => Promise<T>;
  traceparent: () => string | undefined;
  flush: () => Promise<void>;
};
