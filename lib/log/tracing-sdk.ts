// The OpenTelemetry SDK, started by tracing.ts's startTracing() (only when an OTLP endpoint is set): spans batched to
// the OTLP/HTTP exporter, which reads the standard OTEL_EXPORTER_OTLP_* variables (endpoint, headers, timeout,
// compression); the resource's service.name is "hintline" unless OTEL_SERVICE_NAME (or OTEL_RESOURCE_ATTRIBUTES) says
// otherwise. The context manager is global (the AI SDK's spans nest under the active one); the tracer provider is not,
// so that Next.js's own request spans stay off and a trace is a reply's.
import { context, ROOT_CONTEXT, type Span, SpanStatusCode, type Tracer, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from "@opentelemetry/resources";
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from "@opentelemetry/sdk-trace";
import { registerTelemetry } from "ai";
import { envNumber } from "../env-number.ts";
import { formatTraceparent, parseTraceparent } from "./traceparent.ts";
import type { ReplyTrace, ReplyTraceInfo, TracedToolCall, TracingRuntime } from "./tracing-contract.ts";
import { HintlineTelemetry } from "./tracing-ai-sdk.ts";

/** The batch span processor's settings from the standard OTEL_BSP_* variables (the SDK itself reads none of them). */
function batchOptions() {
  const optional = (name: string, key: string) => {
    const value = Math.floor(envNumber(name, 0));
    return value > 0 ? { [key]: value } : {};
  };
  return {
    ...optional("OTEL_BSP_SCHEDULE_DELAY", "scheduledDelayMillis"),
    ...optional("OTEL_BSP_EXPORT_TIMEOUT", "exportTimeoutMillis"),
    ...optional("OTEL_BSP_MAX_QUEUE_SIZE", "maxQueueSize"),
    ...optional("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "maxExportBatchSize"),
  };
}

const SAMPLER = /^(parentbased_)?(always_on|always_off|traceidratio)$/;

/**
 * OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG: every reply by default; a child's reply follows its parent's choice.
 * The "always" and "traceidratio" samplers, parent-based or not, are known; any other value means the default.
 */
export function samplerOf(env: Record<string, string | undefined> = process.env): Sampler {
  const [, parentBased, kind] = SAMPLER.exec(env.OTEL_TRACES_SAMPLER?.trim().toLowerCase() ?? "") ?? [];
  const ratio = Math.min(1, Number(env.OTEL_TRACES_SAMPLER_ARG?.trim() || 1));
  const root =
    kind === "always_off"
      ? new AlwaysOffSampler()
      : kind === "traceidratio" && ratio >= 0
        ? new TraceIdRatioBasedSampler(ratio)
        : new AlwaysOnSampler();
  return parentBased || !kind ? new ParentBasedSampler({ root }) : root;
}

/**
 * Attribute values are cut at OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT characters (default 32,768: with content on, a long
 * conversation's input would otherwise go whole into every model call's span); OTEL_SPAN_EVENT_COUNT_LIMIT events.
 */
function spanLimits() {
  return {
    attributeValueLengthLimit: Math.floor(envNumber("OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT", 32_768)) || 32_768,
    eventCountLimit: Math.floor(envNumber("OTEL_SPAN_EVENT_COUNT_LIMIT", 128)),
  };
}

/** How long the spans not sent yet may take to leave as the server stops. */
const FLUSH_MS = 2_000;

function replyAttributes(info: ReplyTraceInfo) {
  return {
    "gen_ai.operation.name": "invoke_agent",
    "gen_ai.agent.name": info.agent ?? "hintline",
    "gen_ai.conversation.id": info.conversationId,
    "hintline.reply.id": info.replyId,
    ...(info.resumed ? { "hintline.reply.resumed": true } : {}),
  };
}

/** A call's arguments or output as an attribute (JSON; what JSON cannot hold as its type's name). */
function asAttribute(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return typeof value;
  }
}

/** A tool call the reply loop runs itself (an approved one), as @ai-sdk/otel traces the others. */
async function traceToolCall<T>(tracer: Tracer, content: boolean, call: TracedToolCall, run: () => Promise<T>) {
  const span = tracer.startSpan(`execute_tool ${call.toolName}`, {
    attributes: {
      "gen_ai.operation.name": "execute_tool",
      "gen_ai.tool.name": call.toolName,
      "gen_ai.tool.call.id": call.toolCallId,
      "gen_ai.tool.type": "function",
      ...(content ? { "gen_ai.tool.call.arguments": asAttribute(call.input) } : {}),
    },
  });
  const started = performance.now();
  try {
    const output = await context.with(trace.setSpan(context.active(), span), run);
    span.setAttributes({
      "hintline.tool.outcome": "ok",
      ...(content ? { "gen_ai.tool.call.result": asAttribute(output) } : {}),
    });
    return output;
  } catch (error) {
    span.setAttribute("hintline.tool.outcome", "error");
    markError(span, error);
    throw error;
  } finally {
    span.setAttribute("gen_ai.execute_tool.duration", (performance.now() - started) / 1000);
    span.end();
  }
}

/** Marks a span as failed by what it threw: its type, never its words. */
function markError(span: Span, error: unknown): void {
  span.setAttribute("error.type", error instanceof Error ? error.name : "Error");
  span.setStatus({ code: SpanStatusCode.ERROR });
}

export function createTracing(): TracingRuntime {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new TracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ "service.name": "hintline" }))
      .merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerOf(),
    spanLimits: spanLimits(),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), ...batchOptions() })],
  });
  const tracer = provider.getTracer("hintline");
  const content = process.env.HINTLINE_TRACE_CONTENT?.trim() === "1";
  registerTelemetry(new HintlineTelemetry({ tracer, content }));
  return {
    async traceReply<T>(info: ReplyTraceInfo, run: (trace: ReplyTrace) => Promise<T>): Promise<T> {
      // A reply is a trace of its own unless a parent started it: never under whatever ran before it here (the reply
      // a queued message follows).
      const parent = parseTraceparent(info.parent);
      const parentContext = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
      const span = tracer.startSpan(
        `invoke_agent ${info.agent ?? "hintline"}`,
        { attributes: replyAttributes(info) },
        parentContext,
      );
      const replyTrace: ReplyTrace = {
        outcome: (status, steps) => {
          span.setAttributes({ "hintline.reply.status": status, "hintline.reply.steps": steps });
          if (status === "error") span.setStatus({ code: SpanStatusCode.ERROR });
        },
      };
      try {
        return await context.with(trace.setSpan(parentContext, span), () => run(replyTrace));
      } catch (error) {
        markError(span, error);
        throw error;
      } finally {
        span.end();
      }
    },
    toolCall: (call, run) => traceToolCall(tracer, content, call, run),
    hint: (source) =>
      trace.getActiveSpan()?.addEvent("hint", {
        "hintline.hint.source": source.label,
        "hintline.hint.sublabel": source.sublabel,
      }),
    traceparent: () => {
      const active = trace.getActiveSpan()?.spanContext();
      return active ? formatTraceparent(active) : undefined;
    },
    flush: () => provider.forceFlush({ timeoutMillis: FLUSH_MS }),
  };
}
