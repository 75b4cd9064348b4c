// What a conversation's run looks like from outside: the reply still being written, whether its instance is alive
// and what it waits for. Decided from facts the caller reads (lib/chat/run-status.ts) and the clock it passes.
import type { ChatMessage } from "../chat-message.ts";

export type RunStatus = "running" | "waiting" | "recovering";

export type RunView = {
  /** The reply's message id. */
  id: string;
  /** `waiting`: for the person's approval; `recovering`: its instance stopped, and the run awaits resuming. */
  status: RunStatus;
  /** The model call it is on: 1 for the first, 0 while it prepares the first. */
  step: number;
  startedAt: string;
  /** When its instance last showed it was alive. */
  heartbeatAt: string;
};

export type RunHolder = {
  /** The reply it holds. */
  replyId: string;
  /** When the instance holding the run last renewed its hold; absent when this process holds it (alive now). */
  heartbeatAt?: Date;
  /** Held, but waiting its turn to go on after a restart. */
  resuming?: boolean;
};

/**
 * The run of the conversation whose messages are `messages`: the reply some instance holds, while it is still being
 * written; null otherwise (a reply nobody holds is about to be settled as interrupted).
 */
export function runView({
  messages,
  holder,
  now,
  silentAfterMs,
}: {
  messages: readonly ChatMessage[];
  holder: RunHolder | undefined;
  now: Date;
  /** A holder silent for longer is presumed gone: its run waits for another instance to take it over. */
  silentAfterMs: number;
}): RunView | null {
  const reply = holder && messages.findLast((message) => message.id === holder.replyId);
  if (!holder || !reply || reply.role !== "assistant" || reply.metadata?.status !== "streaming") return null;
  const heartbeatAt = holder.heartbeatAt ?? now;
  const silent = now.getTime() - heartbeatAt.getTime() > silentAfterMs;
  const waiting = reply.parts.some((part) => "state" in part && part.state === "approval-requested");
  return {
    id: reply.id,
    status: holder.resuming || silent ? "recovering" : waiting ? "waiting" : "running",
    step: reply.parts.filter((part) => part.type === "step-start").length,
    startedAt: reply.metadata.createdAt ?? heartbeatAt.toISOString(),
    heartbeatAt: heartbeatAt.toISOString(),
  };
}
