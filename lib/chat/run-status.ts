// The conversation's run as GET /api/conversations/:id shows it: who holds its reply (this process, another
// instance's lease, or a restart that has yet to resume it), decided by lib/agent/run-view.ts.
import { type RunView, runView } from "../agent/run-view.ts";
import type { ChatMessage } from "../chat-message.ts";
import { now } from "../clock.ts";
import { replyLock } from "./live/reply-lock.ts";
import { runLeaseMs, runTimings } from "./runs/lease.ts";
import { awaitingResume } from "./runs/resume-replies.ts";

export async function conversationRun(
  conversationId: string,
  messages: readonly ChatMessage[],
): Promise<RunView | null> {
  const live = await replyLock().live(conversationId);
  const holder = live && {
    replyId: live.replyId,
    heartbeatAt: live.heartbeatAt,
    resuming: awaitingResume(live.replyId),
  };
  // A holder renews every third of the lease: two missed renewals and it is presumed gone (pg-boss soon agrees).
  const silentAfterMs = 2 * runTimings(runLeaseMs()).renewMs;
  return runView({ messages, holder, now: now(), silentAfterMs });
}
