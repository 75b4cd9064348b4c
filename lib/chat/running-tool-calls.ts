// The tool calls this process is running, by conversation and call id, each with its own abort controller: Cancel on
// one call (from any tab, or from another instance through the reply lock) aborts that call only; the reply goes on.
const running = new Map<string, AbortController>();
const key = (conversationId: string, toolCallId: string) => `${conversationId}\u0000${toolCallId}`;

/** Registers a call while it runs; `done` removes it (always call it). */
export function startToolCall(conversationId: string, toolCallId: string): { signal: AbortSignal; done: () => void } {
  const controller = new AbortController();
  const k = key(conversationId, toolCallId);
  running.set(k, controller);
  return {
    signal: controller.signal,
    done: () => {
      if (running.get(k) === controller) running.delete(k);
    },
  };
}

/** Aborts the call if this process runs it; whether it did. */
export function cancelRunningToolCall(conversationId: string, toolCallId: string): boolean {
  const controller = running.get(key(conversationId, toolCallId));
  if (!controller) return false;
  controller.abort();
  return true;
}
