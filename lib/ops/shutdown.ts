// Graceful shutdown. On SIGTERM (or SIGINT) the instance stops taking new replies (503 with Retry-After; health answers
// 503 too, so a load balancer sends no more), lets the running replies finish for up to HINTLINE_SHUTDOWN_GRACE_MS
// (default 25 s), then stops the rest, which are stored as incomplete with the reason "The server restarted." and
// release their leases (another instance takes the conversation's next message at once). It then closes the event
// streams, so that browsers reconnect (elsewhere), and exits 0.
import { activeReply, activeReplyList } from "../chat/active-replies.ts";
import { closeEventStreams } from "../chat/live/event-stream.ts";
import { envNumber } from "../env-number.ts";
import { log } from "../log/logger.ts";

/** What a reply stopped by a shutdown is stored with (its metadata.error). */
export const SHUTDOWN_REASON = "The server restarted.";
/** How long stopped replies get to be stored before the process exits anyway. */
const STORE_WAIT_MS = 10_000;

type State = { draining: boolean; running: Set<Promise<void>>; installed: boolean };
const holder = globalThis as unknown as { __hintlineShutdown?: State };
holder.__hintlineShutdown ??= { draining: false, running: new Set(), installed: false };
const state = holder.__hintlineShutdown;

export function isDraining(): boolean {
  return state.draining;
}

/** Marks a reply as running until the returned function is called (after its row is stored and its lease dropped). */
export function replyRunning(): () => void {
  let done!: () => void;
  const promise = new Promise<void>((resolve) => {
    done = resolve;
  });
  state.running.add(promise);
  return () => {
    state.running.delete(promise);
    done();
  };
}

/** Settles when every running reply is over, or after `ms`; true when all are over. */
async function allOver(ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (state.running.size > 0) {
    const left = deadline - Date.now();
    if (left <= 0) return false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.all(state.running), new Promise((resolve) => (timer = setTimeout(resolve, left)))]);
    clearTimeout(timer);
  }
  return true;
}

/** Drains this instance; resolves when it may exit. */
export async function drain(graceMs = envNumber("HINTLINE_SHUTDOWN_GRACE_MS", 25_000)): Promise<void> {
  if (state.draining) return;
  state.draining = true;
  log().info({ replies: state.running.size, graceMs }, "shutting down: no new replies; running ones may finish");
  if (!(await allOver(graceMs))) {
    const stopped = activeReplyList();
    log().warn({ replies: stopped.length }, "shutdown grace is over: stopping the replies still running");
    for (const [conversationId] of stopped) activeReply(conversationId)?.controller.abort(SHUTDOWN_REASON);
    if (!(await allOver(STORE_WAIT_MS))) log().error({ replies: state.running.size }, "replies were not stored in time; the next instance settles them");
  }
  closeEventStreams();
  log().info("shut down");
}

/** Installs the SIGTERM/SIGINT handler once per process (called from instrumentation.ts). */
export function installShutdown(): void {
  if (state.installed) return;
  state.installed = true;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.on(signal, () => {
      if (state.draining) return;
      log().info({ signal }, "signal received");
      drain()
        .catch((error) => log().error({ err: error }, "shutdown failed"))
        // Give the closed streams a moment to reach their clients before the sockets go.
        .finally(() => setTimeout(() => process.exit(0), 100));
    });
  }
}
