// Whether this instance is draining (shutting down: no new replies) and which replies are still running. The state
// lives here, below lib/ops, so that starting a reply can read it; lib/ops/shutdown.ts drains on SIGTERM.

/** What a reply stopped by a shutdown is stored with (its metadata.error). */
export const SHUTDOWN_REASON = "The server restarted.";

type State = { draining: boolean; running: Set<Promise<void>> };
const holder = globalThis as unknown as { __hintlineDraining?: State };
holder.__hintlineDraining ??= { draining: false, running: new Set() };
const state = holder.__hintlineDraining;

export function isDraining(): boolean {
  return state.draining;
}

/** Marks the instance as draining; false when it already was. */
export function startDraining(): boolean {
  if (state.draining) return false;
  state.draining = true;
  return true;
}

/** How many replies are marked running. */
export function runningReplyCount(): number {
  return state.running.size;
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
export async function allRepliesOver(ms: number): Promise<boolean> {
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
