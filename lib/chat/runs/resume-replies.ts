// Runs that outlive their process, on a one-process server (SQLite): at start-up, every reply the last run left
// "streaming" goes on from its last finished step (resume-reply.ts), 16 at a time, under the reply lock it takes
// before the server answers anyone — so no request settles it as interrupted meanwhile. PostgreSQL's instances take
// over each other's runs instead (pg-boss-engine.ts).
import { databaseUrl, isPostgresUrl } from "../../db/client.ts";
import { listStreamingReplies } from "../../db/messages.ts";
import { log } from "../../log/logger.ts";
import { replyLock } from "../live/reply-lock.ts";
import { type HeldReply, resumeHeld } from "./resume-reply.ts";

/**
 * Replies resumed at once; the others wait their turn (each holds its conversation's lock meanwhile). A reply mostly
 * waits on its provider, so this bounds the burst of model calls a restart sends rather than the server's own work.
 */
const AT_ONCE = 16;

/** The replies held at start-up that wait their turn to go on (one set, whichever bundle loads this module). */
const holder = globalThis as unknown as { __hintlineAwaitingResume?: Set<string> };
holder.__hintlineAwaitingResume ??= new Set();
const awaiting = holder.__hintlineAwaitingResume;

/** Whether `replyId` was left by the last run and still waits its turn to go on. */
export function awaitingResume(replyId: string): boolean {
  return awaiting.has(replyId);
}

/**
 * Takes the lock of every reply the last run left and resumes them in the background. Resolves with how many, once
 * every lock is held: call it before the server answers requests.
 */
export async function resumeLeftReplies(): Promise<number> {
  if (isPostgresUrl(databaseUrl())) return 0;
  const held: HeldReply[] = [];
  for (const { conversationId, id } of await listStreamingReplies()) {
    const controller = await replyLock().acquire(conversationId, id);
    if (!controller) continue;
    held.push({ conversationId, replyId: id, controller });
    awaiting.add(id);
  }
  if (held.length) log().info({ replies: held.length }, "resuming the replies the last run left");
  const queue = [...held];
  const worker = async () => {
    for (let next = queue.shift(); next; next = queue.shift()) {
      awaiting.delete(next.replyId);
      await resumeHeld(next, "restart");
    }
  };
  void Promise.all(Array.from({ length: Math.min(AT_ONCE, queue.length) }, worker));
  return held.length;
}
