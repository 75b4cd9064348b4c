// OpenTelemetry traces of the replies, when OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) is
// set: one trace per reply, its model and tool calls as the AI SDK's GenAI spans, a child's reply under the parent's
// AgentSpawn span, hints as events naming their source. This module loads no OpenTelemetry code: startTracing()
// imports ./tracing-sdk.ts only when the variable is set, so a server without it starts and runs as before, and what
// the reply code calls here does nothing. The SDK's handle lives on globalThis: Next.js bundles instrumentation.ts
// apart from the routes.
import type { ChatChunk } from "../chat-message.ts";
import type { ReplyTrace, ReplyTraceInfo, TracedToolCall, TracingRuntime } from "./tracing-contract.ts";

export type { ReplyTrace, ReplyTraceInfo };

const holder = globalThis as unknown as { __hintlineTracing?: TracingRuntime };
const NO_TRACE: ReplyTrace = { outcome: () => {} };

/** Whether the environment asks for traces (the OpenTelemetry SDK's own OTEL_SDK_DISABLED=true turns them off). */
export function tracingConfigured(env: Record<string, string | undefined> = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Starts the SDK once per process when the environment asks for traces (instrumentation.ts); true when it did. */
export async function startTracing(): Promise<boolean> {
  if (holder.__hintlineTracing || !tracingConfigured()) return false;
  const { createTracing } = await import("./tracing-sdk.ts");
  holder.__hintlineTracing ??= createTracing();
  return true;
}

/** Runs a reply inside its span (the root of its trace, or under `info.parent`); without tracing, just runs it. */
export function traceReply<T>(info: ReplyTraceInfo, run: (trace: ReplyTrace) => Promise<T>): Promise<T> {
  return holder.__hintlineTracing ? holder.__hintlineTracing.traceReply(info, run) : run(NO_TRACE);
}

/** Runs a tool call the reply loop runs itself (an approved one) inside a span like the AI SDK's tool spans. */
export function traceToolCall<T>(call: TracedToolCall, run: () => Promise<T>): Promise<T> {
  return holder.__hintlineTracing ? holder.__hintlineTracing.toolCall(call, run) : run();
}

/** The hints among `chunks` as events of the reply's span: their source, never their text. */
export function traceHints(chunks: readonly ChatChunk[]): void {
  const tracing = holder.__hintlineTracing;
  if (!tracing) return;
  for (const chunk of chunks) if (chunk.type === "data-hint") tracing.hint(chunk.data.source);
}

/** The W3C traceparent of the span running now (a tool call's), for a reply that runs later or elsewhere. */
export function currentTraceparent(): string | undefined {
  return holder.__hintlineTracing?.traceparent();
}

/** Sends the spans not sent yet (before the process exits). */
export async function flushTracing(): Promise<void> {
  await holder.__hintlineTracing?.flush();
}
