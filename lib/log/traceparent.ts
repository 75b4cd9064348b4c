// A span's context as a W3C traceparent header value and back: what a child's run stores so that its reply, run later
// or by another instance, nests under the span that started it (https://www.w3.org/TR/trace-context/#traceparent-header).
import { isSpanContextValid, type SpanContext, TraceFlags } from "@opentelemetry/api";

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** `00-<trace id>-<span id>-<flags>`, or undefined for a context that names no span (all zeros). */
export function formatTraceparent(context: SpanContext): string | undefined {
  if (!isSpanContextValid(context)) return undefined;
  const flags = context.traceFlags & TraceFlags.SAMPLED ? "01" : "00";
  return `00-${context.traceId}-${context.spanId}-${flags}`;
}

/** The span context a stored traceparent names, or undefined when it is not one (anything else is ignored). */
export function parseTraceparent(value: unknown): SpanContext | undefined {
  const match = typeof value === "string" ? TRACEPARENT.exec(value) : null;
  if (!match) return undefined;
  const context: SpanContext = {
    traceId: match[1]!,
    spanId: match[2]!,
    traceFlags: Number.parseInt(match[3]!, 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(context) ? context : undefined;
}
