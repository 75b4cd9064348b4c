// A reply that outlives its request: its UI message stream is drained into the relay by the server itself, and
// every reader (the request that started it, a resume, another tab) is a follower of the relay. Closing the
// browser therefore stops nothing; only Stop, the reply ceiling or an error end a reply.
import { createUIMessageStreamResponse, type UIMessageChunk } from "ai";
import { CHAT_STREAM_HEADERS } from "../../api/stream-headers.ts";
import { getConversation } from "../../db/conversations.ts";
import { ApiError } from "../../api/errors.ts";
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { settleStaleReplies } from "../../db/messages.ts";
import { stopWaitMs } from "./hold-conversation.ts";
import { publishChange } from "./event-bus.ts";
import { followRemote, ownReply } from "./pg-relay.ts";
import { liveRelay } from "./relay.ts";
import { replyLock } from "./reply-lock.ts";
import { log, logFailure } from "../../log/logger.ts";

/** The AI SDK's UI message stream headers, plus Hintline's. */
export const LIVE_STREAM_HEADERS = {
  "content-type": "text/event-stream",
  connection: "keep-alive",
  "x-vercel-ai-ui-message-stream": "v1",
  "x-accel-buffering": "no",
  ...CHAT_STREAM_HEADERS,
} as const;

type Chunk = { type: string; id?: string; transient?: boolean };

/** Starts draining `stream` into the relay and answers with a follower from its first chunk. */
export function detachReply({
  conversationId,
  replyId,
  stream,
}: {
  conversationId: string;
  replyId: string;
  stream: ReadableStream<Chunk>;
}): Response {
  // `npm run bench` measures the relay's cost against the stream answered directly (the reply then ends with its request).
  if (process.env.HINTLINE_BENCH_NO_RELAY === "1")
    return createUIMessageStreamResponse({
      stream: stream as ReadableStream<UIMessageChunk>,
      headers: CHAT_STREAM_HEADERS,
    });
  const sink = liveRelay().open(conversationId, replyId);
  const follower = liveRelay().follow(conversationId);
  // The person's message and the reply's row are stored: other tabs show them.
  publishChange({ type: "conversation", id: conversationId });
  publishChange({ type: "conversations", id: conversationId });
  // On PostgreSQL a follower on another instance may ask for the reply.
  const disown = isPostgresUrl(databaseUrl())
    ? ownReply(conversationId, replyId).catch((error) => {
        logFailure("listening for followers on other instances failed", { conversationId, replyId })(error);
        return () => {};
      })
    : undefined;
  void (async () => {
    const reader = stream.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        sink.write(value);
        // The agent changed the task list: other tabs' panels look again.
        if (value.type === "data-tasks") publishChange({ type: "tasks", id: conversationId });
      }
    } catch (error) {
      // createUIMessageStream reports errors as chunks; a failure here only ends the stream
      logFailure("a live reply's stream failed", { conversationId, replyId })(error);
    } finally {
      sink.end();
      void disown?.then((release) => release());
      publishChange({ type: "conversation", id: conversationId });
      publishChange({ type: "conversations", id: conversationId });
    }
  })();
  return new Response(follower ?? null, { headers: LIVE_STREAM_HEADERS });
}

async function requireConversation(conversationId: string): Promise<void> {
  if (!(await getConversation({ id: conversationId })))
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
}

/** How long a follower waits for a reply this instance holds the lock of but has not opened yet (a resume starting). */
const OPENING_WAIT_MS = 5_000;

/** The reply's stream once its run opens it, while this instance holds the conversation's lock; none otherwise. */
async function relayOpening(conversationId: string) {
  const deadline = Date.now() + OPENING_WAIT_MS;
  while (Date.now() < deadline) {
    const live = await replyLock().live(conversationId);
    if (!live?.local) return undefined;
    await new Promise((resolve) => setTimeout(resolve, 50));
    const follower = liveRelay().follow(conversationId);
    if (follower) return follower;
  }
  return undefined;
}

/** The live reply's stream from its first chunk, wherever it is written; none when no reply is live. */
async function followLive(conversationId: string): Promise<ReadableStream<Uint8Array> | undefined> {
  const follower = liveRelay().follow(conversationId) ?? (await relayOpening(conversationId));
  if (follower || !isPostgresUrl(databaseUrl())) return follower;
  const live = await replyLock().live(conversationId);
  if (!live || live.local) return undefined;
  // Taken over by another instance (this one, or a third) before anything was read: the new owner's stream.
  return followRemote(conversationId, live.replyId, live.owner, () => followLive(conversationId));
}

/** The live reply's stream from its first chunk, or 204 when none is live. */
export async function resumeReply(conversationId: string): Promise<Response> {
  await requireConversation(conversationId);
  const follower = await followLive(conversationId);
  if (!follower) return new Response(null, { status: 204 });
  return new Response(follower, { headers: LIVE_STREAM_HEADERS });
}

/** How long a stop waits for a reply on this instance to be stored as incomplete before answering. */
const STOP_WAIT_MS = 10_000;

/** Stored with a reply whose instance died, when Stop finds it so. */
export const DEAD_INSTANCE_REASON =
  "The server instance writing this reply stopped responding, so the reply was stored as incomplete with what it had saved.";

/** Stopped as asked; or found stopped already (its instance died) and settled here as incomplete, with why. */
export type StopAnswer = { stopped: true } | { stopped: false; settled: "incomplete"; reason: string };

/**
 * Stops the conversation's live reply and answers once it is stored as incomplete; 409 when none is live or when it
 * did not stop in time. A reply whose instance died (its lease runs out unrenewed) is settled here, and the answer
 * says so instead of claiming a stop that never happened.
 */
export async function stopLiveReply(conversationId: string): Promise<StopAnswer> {
  await requireConversation(conversationId);
  const reply = await replyLock().stop(conversationId);
  if (!reply) throw new ApiError("conflict", `No reply is being written in conversation ${conversationId}.`);
  const didNotStop = (seconds: number) =>
    new ApiError(
      "conflict",
      `The reply in conversation ${conversationId} did not stop within ${seconds} s; it is still being written. Try Stop again.`,
    );
  if (reply.local) {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const ended = await Promise.race([
      liveRelay()
        .ended(conversationId, reply.replyId)
        .then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), STOP_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (!ended && (await replyLock().live(conversationId))?.replyId === reply.replyId)
      throw didNotStop(STOP_WAIT_MS / 1000);
    return { stopped: true };
  }
  // Another instance writes it: done when its lease is released (the reply is stored by then), or has run out
  // unrenewed (that instance is gone, no instance took its run over, and nothing stored the reply's end). An instance
  // that takes the run of a dead one over is told to stop it in turn.
  const deadline = Date.now() + stopWaitMs();
  let told = reply.owner;
  for (let live = await replyLock().live(conversationId); live?.replyId === reply.replyId; ) {
    if (Date.now() > deadline) throw didNotStop(Math.round(stopWaitMs() / 1000));
    if (live.owner !== told) {
      told = live.owner;
      log().info({ conversationId, replyId: reply.replyId }, "a stopped reply was taken over: stopping it there");
      await replyLock().stop(conversationId);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
    live = await replyLock().live(conversationId);
  }
  const holder = `stop-${reply.replyId}`;
  // Taken only when no new reply started meanwhile (which settles the old one itself).
  if (!(await replyLock().acquire(conversationId, holder))) return { stopped: true };
  try {
    const settled = await settleStaleReplies({ conversationId, activeIds: new Set(), reason: DEAD_INSTANCE_REASON });
    return settled > 0 ? { stopped: false, settled: "incomplete", reason: DEAD_INSTANCE_REASON } : { stopped: true };
  } finally {
    await replyLock()
      .release(conversationId, holder)
      .catch(() => {});
  }
}
