// Graceful shutdown. On SIGTERM (or SIGINT) the instance stops taking new replies (503 with Retry-After; health answers
// 503 too, so a load balancer sends no more) and stops ending idle conversations (their durable facts), lets the
// running replies finish for up to HINTLINE_SHUTDOWN_GRACE_MS (default 25 s), then hands the rest over: saved, still
// "streaming", their leases released; on SQLite the next start resumes them, on PostgreSQL another instance takes them
// over at once (the run engine fails their jobs into its recovery queue, lib/chat/runs/pg-boss-engine.ts). It then
// closes the event streams, so that browsers reconnect (elsewhere), and the state sources' MCP subscriptions, and
// exits 0.
import { HANDOVER_REASON } from "../agent/resume-point.ts";
import { activeReply, activeReplyList } from "../chat/active-replies.ts";
import { allRepliesOver, isDraining, runningReplyCount, startDraining } from "../chat/draining.ts";
import { stopIdleMemorySweep } from "../chat/conversation-end-memory.ts";
import { closeEventStreams } from "../chat/live/event-stream.ts";
import { stateSubscriptions } from "../chat/state-subscriptions.ts";
import { envNumber } from "../env-number.ts";
import { log } from "../log/logger.ts";
import { flushTracing } from "../log/tracing.ts";
import { runEngineSettled, stopTakingOver } from "../chat/runs/pg-boss-engine.ts";

/** How long stopped replies get to be stored before the process exits anyway. */
const STORE_WAIT_MS = 10_000;

// Read by scripts/server.mjs: with no handler installed, a signal exits at once.
const holder = globalThis as unknown as { __hintlineShutdown?: { installed: boolean } };
holder.__hintlineShutdown ??= { installed: false };
const state = holder.__hintlineShutdown;

/** Drains this instance; resolves when it may exit. */
export async function drain(graceMs = envNumber("HINTLINE_SHUTDOWN_GRACE_MS", 25_000)): Promise<void> {
  if (!startDraining()) return;
  stopIdleMemorySweep();
  await stopTakingOver().catch((error) => log().warn({ err: error }, "stopping the run take-overs failed"));
  log().info({ replies: runningReplyCount(), graceMs }, "shutting down: no new replies; running ones may finish");
  if (!(await allRepliesOver(graceMs))) {
    const stopped = activeReplyList();
    log().warn({ replies: stopped.length }, "shutdown grace is over: stopping the replies still running");
    for (const [conversationId] of stopped) activeReply(conversationId)?.controller.abort(HANDOVER_REASON);
    if (!(await allRepliesOver(STORE_WAIT_MS)))
      log().error({ replies: runningReplyCount() }, "replies were not stored in time; the next instance settles them");
    // PostgreSQL: the handed-over runs' jobs reach the recovery queue before the process goes.
    await runEngineSettled();
  }
  closeEventStreams();
  // State sources' subscriptions: unsubscribed and their sessions ended (each within 2 s), so servers free them.
  await stateSubscriptions()
    .endAll()
    .catch((error) => log().warn({ err: error }, "closing the state sources' subscriptions failed"));
  // The last replies' spans leave before the process does.
  await flushTracing().catch((error) => log().warn({ err: error }, "sending the last spans failed"));
  log().info("shut down");
}

/** Installs the SIGTERM/SIGINT handler once per process (called from instrumentation.ts). */
export function installShutdown(): void {
  if (state.installed) return;
  state.installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (isDraining()) return;
      log().info({ signal }, "signal received");
      drain()
        .catch((error) => log().error({ err: error }, "shutdown failed"))
        // Give the closed streams a moment to reach their clients before the sockets go.
        .finally(() => setTimeout(() => process.exit(0), 100));
    });
  }
}
