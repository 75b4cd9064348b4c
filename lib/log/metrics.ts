// Prometheus metrics (prom-client), served by GET /api/metrics (lib/ops/metrics.ts): replies and their outcomes, model
// calls and tokens by model, reply and first-token durations, what is live right now, and the process's own figures
// (memory, event loop). Counted as things happen (lib/chat/reply/report.ts); the live gauges are set when served.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export type ReplyOutcome = "complete" | "incomplete" | "error" | "stopped";

function createMetrics() {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const counter = (name: string, help: string, labelNames: string[] = []) =>
    new Counter({ name, help, labelNames, registers: [registry] });
  const durations = [0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
  return {
    registry,
    repliesStarted: counter("hintline_replies_started_total", "Replies started on this instance."),
    repliesFinished: counter(
      "hintline_replies_finished_total",
      "Replies that ran to their end (complete, or incomplete at a limit).",
      ["status"],
    ),
    repliesErrored: counter("hintline_replies_errored_total", "Replies that ended with an error."),
    repliesStopped: counter("hintline_replies_stopped_total", "Replies stopped (Stop, or the server shutting down).", [
      "reason",
    ]),
    modelCalls: counter(
      "hintline_model_calls_total",
      "Model calls that ended with a finish reason (one per reasoning step).",
      ["model"],
    ),
    inputTokens: counter("hintline_input_tokens_total", "Input tokens the provider reported.", ["model"]),
    cachedInputTokens: counter("hintline_cached_input_tokens_total", "Cached input tokens the provider reported.", [
      "model",
    ]),
    outputTokens: counter("hintline_output_tokens_total", "Output tokens the provider reported.", ["model"]),
    replySeconds: new Histogram({
      name: "hintline_reply_duration_seconds",
      help: "Time from a reply's start to its end.",
      labelNames: ["outcome"],
      buckets: durations,
      registers: [registry],
    }),
    firstTokenSeconds: new Histogram({
      name: "hintline_first_token_seconds",
      help: "Time from a reply's start to the first text, reasoning or tool call it streams.",
      buckets: durations,
      registers: [registry],
    }),
    liveReplies: new Gauge({
      name: "hintline_live_replies",
      help: "Replies this instance is writing now.",
      registers: [registry],
    }),
    eventListeners: new Gauge({
      name: "hintline_event_listeners",
      help: "Open change-event streams (GET /api/events) on this instance.",
      registers: [registry],
    }),
    // Tool approvals come with MCP tools; until then nothing waits, and the gauge is there for dashboards.
    approvalsWaiting: new Gauge({
      name: "hintline_approvals_waiting",
      help: "Tool calls waiting for the person's approval.",
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

const holder = globalThis as unknown as { __hintlineMetrics?: Metrics };

/** The process's metrics (one registry for every route bundle). */
export function metrics(): Metrics {
  holder.__hintlineMetrics ??= createMetrics();
  return holder.__hintlineMetrics;
}

/** Counts one model call's reported usage under the model's label (a bounded set of values). */
export function countModelCall(
  model: string,
  usage: { inputTokens?: number; cachedInputTokens?: number; outputTokens?: number },
): void {
  const m = metrics();
  m.modelCalls.inc({ model });
  if (usage.inputTokens) m.inputTokens.inc({ model }, usage.inputTokens);
  if (usage.cachedInputTokens) m.cachedInputTokens.inc({ model }, usage.cachedInputTokens);
  if (usage.outputTokens) m.outputTokens.inc({ model }, usage.outputTokens);
}

/** Counts a reply's end and its duration. */
export function countReplyEnd(outcome: ReplyOutcome, seconds: number, stopReason = "stop"): void {
  const m = metrics();
  if (outcome === "error") m.repliesErrored.inc();
  else if (outcome === "stopped") m.repliesStopped.inc({ reason: stopReason });
  else m.repliesFinished.inc({ status: outcome });
  m.replySeconds.observe({ outcome }, seconds);
}
