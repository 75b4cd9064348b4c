// The one-reply-per-conversation lock. In process (SQLite, one instance) it is active-replies.ts; on PostgreSQL it is
// also a lease row that the instance streaming the reply renews, so that another instance refuses a second reply
// (409) and forwards a Stop to the owner (NOTIFY). A dead instance's reply is adopted by the instance that takes its
// run from pg-boss (lib/chat/runs/pg-boss-engine.ts) before the row runs out (lib/chat/runs/lease.ts); a row that
// does run out (no instance adopted the reply) frees the conversation.
import { generateId } from "ai";
import { localRun } from "../runs/local-runs.ts";
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { adoptLease, dropLease, liveLease, listen, notify, renewLeases, takeLease } from "../../db/pg-live.ts";
import { activeReply, activeReplyIds, activeReplyList, beginReply, endReply } from "../active-replies.ts";
import { TAKEN_OVER_REASON } from "../../agent/resume-point.ts";
import { log, logFailure } from "../../log/logger.ts";
import { cancelRunningToolCall } from "../running-tool-calls.ts";
import { runLeaseMs, runTimings } from "../runs/lease.ts";

/** The live reply; `owner` names the instance writing it (PostgreSQL), which changes when another adopts it. */
export type LiveReplyRef = {
  replyId: string;
  local: boolean;
  owner?: string;
  /** When another instance last renewed its hold on the reply (absent when this process runs it). */
  heartbeatAt?: Date;
};

export interface ReplyLock {
  acquire(conversationId: string, replyId: string): Promise<AbortController | undefined>;
  /**
   * Takes the lock of a reply whose instance died, even while that instance's lease has not run out; undefined when
   * the conversation is held for another reply. Only for a run pg-boss handed over (its heartbeat stopped).
   */
  adopt(conversationId: string, replyId: string): Promise<AbortController | undefined>;
  release(conversationId: string, replyId: string): Promise<void>;
  /** Replies being written in the conversation (by any instance): their rows are not stale. */
  activeIds(conversationId: string): Promise<Set<string>>;
  live(conversationId: string): Promise<LiveReplyRef | undefined>;
  /** Stops the conversation's live reply wherever it runs; the reply stopped, or undefined when none is live. */
  stop(conversationId: string): Promise<LiveReplyRef | undefined>;
  /**
   * Cancels one running tool call of the conversation's live reply: "cancelled" when this process ran it, "sent" when
   * the reply runs on another instance (told through NOTIFY), undefined when no such call or reply is running.
   */
  cancelToolCall(conversationId: string, toolCallId: string): Promise<"cancelled" | "sent" | undefined>;
  /** Whether another instance took the run of this process's reply `replyId` over (PostgreSQL; never in process). */
  takenOver(conversationId: string, replyId: string): Promise<boolean>;
}

export function memoryLock(): ReplyLock {
  return {
    acquire: async (conversationId, replyId) => beginReply(conversationId, replyId),
    adopt: async (conversationId, replyId) => beginReply(conversationId, replyId),
    release: async (conversationId, replyId) => endReply(conversationId, replyId),
    activeIds: async (conversationId) => activeReplyIds(conversationId),
    live: async (conversationId) => {
      const reply = activeReply(conversationId);
      return reply ? { replyId: reply.replyId, local: true } : undefined;
    },
    stop: async (conversationId) => {
      const reply = activeReply(conversationId);
      if (!reply) return undefined;
      reply.controller.abort();
      return { replyId: reply.replyId, local: true };
    },
    cancelToolCall: async (conversationId, toolCallId) =>
      cancelRunningToolCall(conversationId, toolCallId) ? "cancelled" : undefined,
    takenOver: async () => false,
  };
}

/** This process, as lease rows and its run queue name it: one id, whichever bundle of the server loads this module. */
const ids = globalThis as unknown as { __hintlineInstanceId?: string };
ids.__hintlineInstanceId ??= generateId();
export const INSTANCE_ID = ids.__hintlineInstanceId;

/** How long a reply's lease row lasts without renewal: past the take-over of a dead instance's runs. */
export const leaseMs = () => runTimings(runLeaseMs()).lockMs;

/** The local half first (one reply per conversation in this process), then the lease row as `take` takes it. */
async function lockWith(
  conversationId: string,
  replyId: string,
  take: typeof takeLease,
): Promise<AbortController | undefined> {
  const controller = beginReply(conversationId, replyId);
  if (!controller) return undefined;
  try {
    if (await take(conversationId, replyId, INSTANCE_ID, leaseMs())) return controller;
  } catch (error) {
    endReply(conversationId, replyId);
    throw error;
  }
  endReply(conversationId, replyId);
  return undefined;
}

/** Stops, with TAKEN_OVER_REASON, the replies of `mine` whose runs another instance took over (`taken`). */
function stopTakenOver(mine: Array<[string, string]>, taken: string[]): void {
  for (const [conversationId, replyId] of mine) {
    if (!taken.includes(replyId)) continue;
    const reply = activeReply(conversationId);
    if (reply?.replyId !== replyId) continue;
    log().warn({ conversationId, replyId }, "another instance took this reply over: it stops here and goes on there");
    reply.controller.abort(TAKEN_OVER_REASON);
  }
}

export function postgresLock(): ReplyLock {
  const local = memoryLock();
  let renewing: ReturnType<typeof setInterval> | undefined;
  let listening: Promise<void> | undefined;
  const setUp = () => {
    listening ??= Promise.all([
      listen("hintline_stop", (payload) => {
        const { conversationId, replyId } = JSON.parse(payload) as { conversationId: string; replyId: string };
        const reply = activeReply(conversationId);
        if (reply?.replyId === replyId) reply.controller.abort();
      }),
      listen("hintline_cancel_tool", (payload) => {
        const { conversationId, toolCallId } = JSON.parse(payload) as { conversationId: string; toolCallId: string };
        cancelRunningToolCall(conversationId, toolCallId);
      }),
    ])
      .then(() => undefined)
      .catch((error) => {
        listening = undefined;
        throw error;
      });
    // Every lease this process holds is renewed at a third of HINTLINE_RUN_LEASE_MS; a reply another instance took
    // over meanwhile (this one was silent past the lease) stops here without another write: it goes on there.
    renewing ??= setInterval(() => {
      const mine = activeReplyList();
      void renewLeases(
        mine.map(([, replyId]) => replyId),
        leaseMs(),
        INSTANCE_ID,
      )
        .then((taken) => stopTakenOver(mine, taken))
        .catch(logFailure("reply lease renewal failed: another instance may take over these replies"));
    }, runTimings(runLeaseMs()).renewMs);
    renewing.unref?.();
    return listening;
  };
  return {
    async acquire(conversationId, replyId) {
      await setUp();
      return lockWith(conversationId, replyId, takeLease);
    },
    async adopt(conversationId, replyId) {
      await setUp();
      return lockWith(conversationId, replyId, adoptLease);
    },
    async release(conversationId, replyId) {
      endReply(conversationId, replyId);
      // A reply handed over at a graceful restart keeps its lease row (no longer renewed) for the instance that adopts
      // it: dropped, a view read in the gap would settle the still-streaming reply as stale before the take-over.
      if (localRun(replyId)?.handedOver) return;
      await dropLease(conversationId, replyId, INSTANCE_ID);
    },
    async activeIds(conversationId) {
      const ids = activeReplyIds(conversationId);
      const lease = await liveLease(conversationId);
      if (lease) ids.add(lease.replyId);
      return ids;
    },
    async live(conversationId) {
      const mine = await local.live(conversationId);
      if (mine) return { ...mine, owner: INSTANCE_ID };
      const lease = await liveLease(conversationId);
      return lease
        ? {
            replyId: lease.replyId,
            local: lease.instanceId === INSTANCE_ID,
            owner: lease.instanceId,
            // Each renewal sets the row to last `leaseMs()` from then.
            heartbeatAt: new Date(lease.leaseUntil.getTime() - leaseMs()),
          }
        : undefined;
    },
    async stop(conversationId) {
      const mine = await local.stop(conversationId);
      if (mine) return { ...mine, owner: INSTANCE_ID };
      const lease = await liveLease(conversationId);
      if (!lease) return undefined;
      await notify("hintline_stop", JSON.stringify({ conversationId, replyId: lease.replyId }));
      return { replyId: lease.replyId, local: false, owner: lease.instanceId };
    },
    async cancelToolCall(conversationId, toolCallId) {
      await setUp();
      if (cancelRunningToolCall(conversationId, toolCallId)) return "cancelled";
      const lease = await liveLease(conversationId);
      if (!lease || lease.instanceId === INSTANCE_ID) return undefined;
      await notify("hintline_cancel_tool", JSON.stringify({ conversationId, toolCallId }));
      return "sent";
    },
    async takenOver(conversationId, replyId) {
      const lease = await liveLease(conversationId);
      return lease?.replyId === replyId && lease.instanceId !== INSTANCE_ID;
    },
  };
}

const holder = globalThis as unknown as { __hintlineLock?: { url: string; lock: ReplyLock } };

export function replyLock(): ReplyLock {
  const url = databaseUrl();
  if (holder.__hintlineLock?.url !== url)
    holder.__hintlineLock = { url, lock: isPostgresUrl(url) ? postgresLock() : memoryLock() };
  return holder.__hintlineLock.lock;
}
