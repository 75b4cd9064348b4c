// The live relay across instances on PostgreSQL. The instance writing a reply keeps it in its in-process relay; only
// when a follower on another instance asks (NOTIFY hintline_follow) does it mirror the reply into the
// hintline_live_chunk table — from the first chunk, in batches, each followed by NOTIFY hintline_chunks — so a reply
// nobody resumes elsewhere costs the database nothing. The remote follower reads the rows in order and follows them
// to the end row (empty data), or stops once the owner's lease is gone and no rows come. A reply another instance
// took over (its owner died) starts its rows again: the adopter drops the dead owner's.
import { appendChunks, dropChunks, listen, notify, readChunks } from "../../db/pg-live.ts";
import { liveRelay } from "./relay.ts";
import { replyLock } from "./reply-lock.ts";
import { logFailure } from "../../log/logger.ts";

const decoder = new TextDecoder();
const encoder = new TextEncoder();
/** A mirror waits this long between two writes, so that a fast stream goes in as a few rows rather than one per chunk. */
const MIRROR_BATCH_MS = 20;
/** Rows are kept this long after the reply's end for followers still reading; older rows (a dead instance's) go too. */
const KEEP_ROWS_MS = 30_000;
const STALE_ROWS_MS = 10 * 60_000;
const POLL_MS = 250;

const mirrored = new Map<string, Promise<void>>();
/** Replies this instance is writing: replyId → conversationId. */
const owned = new Map<string, string>();
let listening: Promise<void> | undefined;

function wake(waiters: Map<string, Set<() => void>>, replyId: string): void {
  const set = waiters.get(replyId);
  if (!set) return;
  waiters.delete(replyId);
  for (const resolve of set) resolve();
}
const chunkWaiters = new Map<string, Set<() => void>>();

function setUp(): Promise<void> {
  listening ??= Promise.all([
    listen("hintline_follow", (replyId) => {
      const conversationId = owned.get(replyId);
      if (conversationId && !mirrored.has(replyId)) mirrored.set(replyId, mirror(conversationId, replyId));
    }),
    listen("hintline_chunks", (replyId) => wake(chunkWaiters, replyId)),
  ])
    .then(() => {})
    .catch((error) => {
      listening = undefined;
      throw error;
    });
  return listening;
}

/** Called by the instance that starts a reply: it may now be asked to mirror it. */
export async function ownReply(conversationId: string, replyId: string): Promise<() => void> {
  await setUp();
  owned.set(replyId, conversationId);
  return () => owned.delete(replyId);
}

async function mirror(conversationId: string, replyId: string): Promise<void> {
  const stream = liveRelay().follow(conversationId);
  if (!stream) return;
  const reader = stream.getReader();
  let seq = 0;
  try {
    await dropChunks("", STALE_ROWS_MS).catch(logFailure("dropping stale live-chunk rows failed"));
    for (;;) {
      const { value, done } = await reader.read();
      const rows = done ? [""] : [decoder.decode(value)];
      await appendChunks(replyId, seq, rows);
      seq += rows.length;
      await notify("hintline_chunks", replyId);
      if (done) break;
      await new Promise((resolve) => setTimeout(resolve, MIRROR_BATCH_MS));
    }
  } finally {
    setTimeout(() => {
      mirrored.delete(replyId);
      void dropChunks(replyId, STALE_ROWS_MS).catch(
        logFailure("dropping a reply's live-chunk rows failed", { replyId }),
      );
    }, KEEP_ROWS_MS).unref?.();
  }
}

/** Drops the rows a dead owner mirrored of a reply this instance takes over: its mirror starts them again. */
export async function dropMirroredRows(replyId: string): Promise<void> {
  await dropChunks(replyId, STALE_ROWS_MS);
}

/**
 * A follower of a reply another instance (`owner`) is writing, from its first chunk. When another instance takes the
 * reply over (its owner died) before anything was read, the follower goes on with `taken()` (the new owner's stream,
 * from its first chunk); after something was read it ends, and the reader asks again.
 */
export async function followRemote(
  conversationId: string,
  replyId: string,
  owner: string | undefined,
  taken: () => Promise<ReadableStream<Uint8Array> | undefined>,
): Promise<ReadableStream<Uint8Array>> {
  await setUp();
  await notify("hintline_follow", replyId);
  let cursor = -1;
  let cancelled = false;
  let idle = 0;
  let next: ReadableStreamDefaultReader<Uint8Array> | undefined;
  return new ReadableStream<Uint8Array>(
    {
      pull: async (controller) => {
        const passOn = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
          const { value, done } = await reader.read();
          if (done) controller.close();
          else controller.enqueue(value);
        };
        if (next) return passOn(next);
        for (;;) {
          if (cancelled) return;
          const rows = await readChunks(replyId, cursor, 64);
          if (rows.length > 0) {
            idle = 0;
            cursor = rows.at(-1)!.seq;
            const ended = rows.at(-1)!.data === "";
            const text = rows.map((r) => r.data).join("");
            if (text) controller.enqueue(encoder.encode(text));
            if (ended) controller.close();
            return;
          }
          // Nothing yet: wait for the owner's NOTIFY (or poll); ask again for a mirror in case the first ask was
          // missed, and give up once the owner's lease is gone.
          await new Promise<void>((resolve) => {
            const set = chunkWaiters.get(replyId) ?? new Set();
            chunkWaiters.set(replyId, set);
            set.add(resolve);
            setTimeout(() => {
              set.delete(resolve);
              if (set.size === 0 && chunkWaiters.get(replyId) === set) chunkWaiters.delete(replyId);
              resolve();
            }, POLL_MS).unref?.();
          });
          if (++idle % 8 === 0) {
            const live = await replyLock().live(conversationId);
            const adopted = live?.replyId === replyId && live.owner !== owner;
            if (adopted && cursor < 0) next = (await taken())?.getReader();
            if (live?.replyId !== replyId || adopted) {
              if (next) return passOn(next);
              controller.close();
              return;
            }
            if (cursor < 0) await notify("hintline_follow", replyId);
          }
        }
      },
      cancel: async (reason) => {
        cancelled = true;
        await next?.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
