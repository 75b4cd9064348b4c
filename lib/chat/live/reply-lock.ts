// The one-reply-per-conversation lock. In process (SQLite, one instance) it is active-replies.ts; on PostgreSQL it is
// also a lease row that the instance streaming the reply renews, so that another instance refuses a second reply
// (409), forwards a Stop to the owner (NOTIFY), and takes over once a dead instance's lease has run out.
import { generateId } from "ai";
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { dropLease, liveLease, listen, notify, renewLeases, takeLease } from "../../db/pg-live.ts";
import { envNumber } from "../../env-number.ts";
import { activeReply, activeReplyIds, activeReplyList, beginReply, endReply } from "../active-replies.ts";
import { logFailure } from "../../log/logger.ts";
import { cancelRunningToolCall } from "../running-tool-calls.ts";

export type LiveReplyRef = { replyId: string; local: boolean };

export interface ReplyLock {
  acquire(conversationId: string, replyId: string): Promise<AbortController | undefined>;
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
}

export function memoryLock(): ReplyLock {
  return {
    acquire: async (conversationId, replyId) => beginReply(conversationId, replyId),
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
  };
}

/** This process, as lease rows name it. */
export const INSTANCE_ID = generateId();

/** How long a reply's lease lasts without renewal (HINTLINE_REPLY_LEASE_MS, default 15 s). */
export const leaseMs = () => Math.max(500, envNumber("HINTLINE_REPLY_LEASE_MS", 15_000));

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
    // Every lease this process holds is renewed at a third of its length.
    renewing ??= setInterval(() => {
      void renewLeases(
        activeReplyList().map(([, replyId]) => replyId),
        leaseMs(),
      ).catch(logFailure("reply lease renewal failed: another instance may take over these replies"));
    }, leaseMs() / 3);
    renewing.unref?.();
    return listening;
  };
  return {
    async acquire(conversationId, replyId) {
      await setUp();
      const controller = beginReply(conversationId, replyId);
      if (!controller) return undefined;
      try {
        if (await takeLease(conversationId, replyId, INSTANCE_ID, leaseMs())) return controller;
      } catch (error) {
        endReply(conversationId, replyId);
        throw error;
      }
      endReply(conversationId, replyId);
      return undefined;
    },
    async release(conversationId, replyId) {
      endReply(conversationId, replyId);
      await dropLease(conversationId, replyId);
    },
    async activeIds(conversationId) {
      const ids = activeReplyIds(conversationId);
      const lease = await liveLease(conversationId);
      if (lease) ids.add(lease.replyId);
      return ids;
    },
    async live(conversationId) {
      const mine = await local.live(conversationId);
      if (mine) return mine;
      const lease = await liveLease(conversationId);
      return lease ? { replyId: lease.replyId, local: lease.instanceId === INSTANCE_ID } : undefined;
    },
    async stop(conversationId) {
      const mine = await local.stop(conversationId);
      if (mine) return mine;
      const lease = await liveLease(conversationId);
      if (!lease) return undefined;
      await notify("hintline_stop", JSON.stringify({ conversationId, replyId: lease.replyId }));
      return { replyId: lease.replyId, local: false };
    },
    async cancelToolCall(conversationId, toolCallId) {
      await setUp();
      if (cancelRunningToolCall(conversationId, toolCallId)) return "cancelled";
      const lease = await liveLease(conversationId);
      if (!lease || lease.instanceId === INSTANCE_ID) return undefined;
      await notify("hintline_cancel_tool", JSON.stringify({ conversationId, toolCallId }));
      return "sent";
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
