// Taking a conversation away from its live reply: Stop, and DELETE (which must not leave a reply writing into a
// conversation that is gone). The reply is stopped wherever it runs (on PostgreSQL another instance hears it by
// NOTIFY) and the caller then holds the conversation's reply lock itself, so no reply can start, or still be writing,
// while it acts. A reply whose instance died is taken over by another instance (pg-boss-engine.ts), which is asked to
// stop it in turn; one nobody takes over holds its lease until the lease runs out, and then the lock is free.
import { generateId } from "ai";
import { ApiError } from "../../api/errors.ts";
import { leaseMs, replyLock } from "./reply-lock.ts";

/** How long Stop and DELETE wait for a live reply to end: at least 10 s, and past a dead instance's lease row. */
export const stopWaitMs = (): number => Math.max(10_000, leaseMs() + 1_000);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops the conversation's live reply (if any), waits for it to end and takes the reply lock for `purpose`; resolves
 * to the function that gives the lock back. A reply that does not end in time is a 409 naming what to do.
 */
export async function holdConversation(conversationId: string, purpose: string): Promise<() => Promise<void>> {
  const holder = `${purpose}-${generateId()}`;
  const deadline = Date.now() + stopWaitMs();
  let asked: string | undefined;
  for (;;) {
    if (await replyLock().acquire(conversationId, holder)) {
      return () => replyLock().release(conversationId, holder);
    }
    const live = await replyLock().live(conversationId);
    // Asked again when another instance took the reply over from a dead one.
    if (live && `${live.replyId}@${live.owner}` !== asked) {
      asked = `${live.replyId}@${live.owner}`;
      await replyLock().stop(conversationId);
    }
    if (Date.now() > deadline) {
      throw new ApiError(
        "conflict",
        `A reply is being written in conversation ${conversationId} and did not stop within ${Math.round(stopWaitMs() / 1000)} s; nothing was changed. Try again.`,
      );
    }
    await sleep(50);
  }
}
