// One reply as operations see it: counted in the metrics as it goes, and one log line when it ends (conversation,
// model, steps, tokens, cached share, outcome, durations) — ids and figures only, never what was said.
import { offeredModelIds } from "../../ai/providers/choice.ts";
import { log } from "../../log/logger.ts";
import { countModelCall, countReplyEnd, metrics, type ReplyOutcome } from "../../log/metrics.ts";
import { SHUTDOWN_REASON } from "../draining.ts";

type Usage = { inputTokens?: number; cachedInputTokens?: number; outputTokens?: number };

/** The model label of every model this server does not offer. */
export const OTHER_MODEL = "other";

/**
 * A model's label: its id when this server offers it (GET /api/models, the default, HINTLINE_UTILITY_MODEL), else
 * "other". A compatible server takes any id a person picks, so labelling each would make series without bound.
 */
export function modelLabel(id: string): string {
  return offeredModelIds().has(id) ? id : OTHER_MODEL;
}

const FIRST_OUTPUT = new Set(["text-delta", "reasoning-delta", "tool-input-start", "tool-input-available"]);

export function replyReport({
  conversationId,
  replyId,
  model,
}: {
  conversationId: string;
  replyId: string;
  model: string;
}) {
  const started = performance.now();
  let firstOutputMs: number | undefined;
  let steps = 0;
  let ended = false;
  const tokens = { input: 0, cached: 0, output: 0 };
  metrics().repliesStarted.inc();
  return {
    /** Called with every chunk streamed: the first output is timed. */
    chunk(type: string): void {
      if (firstOutputMs !== undefined || !FIRST_OUTPUT.has(type)) return;
      firstOutputMs = performance.now() - started;
      metrics().firstTokenSeconds.observe(firstOutputMs / 1000);
    },
    call(usage: Usage): void {
      steps++;
      tokens.input += usage.inputTokens ?? 0;
      tokens.cached += usage.cachedInputTokens ?? 0;
      tokens.output += usage.outputTokens ?? 0;
      countModelCall(modelLabel(model), usage);
    },
    /** The reply settled: `stopReason` is the abort signal's reason when it was stopped. */
    end({
      status,
      error,
      stopped,
      stopReason,
    }: {
      status: "complete" | "incomplete" | "error";
      error?: unknown;
      stopped: boolean;
      stopReason?: unknown;
    }): void {
      if (ended) return;
      ended = true;
      const outcome: ReplyOutcome = status === "error" ? "error" : stopped ? "stopped" : status;
      const ms = performance.now() - started;
      const reason = stopReason === SHUTDOWN_REASON ? "shutdown" : "stop";
      countReplyEnd(outcome, ms / 1000, reason);
      const line = {
        conversationId,
        replyId,
        model,
        steps,
        inputTokens: tokens.input,
        cachedInputTokens: tokens.cached,
        outputTokens: tokens.output,
        cachedShare: tokens.input ? Math.round((tokens.cached / tokens.input) * 1000) / 1000 : 0,
        outcome,
        ...(outcome === "stopped" ? { stopReason: reason } : {}),
        durationMs: Math.round(ms),
        ...(firstOutputMs === undefined ? {} : { firstOutputMs: Math.round(firstOutputMs) }),
      };
      if (outcome === "error") log().warn({ ...line, err: error }, "reply failed");
      else log().info(line, "reply");
    },
  };
}
