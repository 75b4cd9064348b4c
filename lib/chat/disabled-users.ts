// What disabling a user does at once, on every instance. Their sessions are deleted with the change
// (lib/db/accounts.ts); here their running replies (and their subagents') are stopped as Stop stops them, stored as
// incomplete with the reason, which ends every follower of those replies; their GET /api/events streams are closed;
// and a message of theirs that was past the session check when the change came gets no reply. On PostgreSQL the word
// goes to every instance by NOTIFY (each instance listens before it runs its first reply or opens its first event
// stream); two processes on one SQLite file share no signal, as for Stop.
import { ApiError } from "../api/errors.ts";
import { databaseUrl, isPostgresUrl } from "../db/client.ts";
import { conversationOwner } from "../db/ownership.ts";
import { listen, liveLeasesOfOwner, notify } from "../db/pg-live.ts";
import { logFailure } from "../log/logger.ts";
import { activeReply, activeReplyList } from "./active-replies.ts";
import { closeEventStreamsOf } from "./live/event-stream.ts";
import { replyLock } from "./live/reply-lock.ts";

/** What a reply stopped this way is stored with (its metadata.error). */
export const DISABLED_REASON = "Stopped: an admin disabled this account.";

const CHANNEL = "hintline_user_disabled";
/** How long an instance remembers a disabled user, for a message of theirs already past the session check. */
const REMEMBER_MS = 60_000;
/** How long the admin's request waits for the user's replies to be stored as stopped. */
const STOP_WAIT_MS = 10_000;

const holder = globalThis as unknown as {
  __hintlineDisabledUsers?: { recent: Map<string, number>; listening?: Promise<void> };
};
holder.__hintlineDisabledUsers ??= { recent: new Map() };
const state = holder.__hintlineDisabledUsers;

function remember(userId: string, now = Date.now()): void {
  for (const [id, at] of state.recent) if (at < now - REMEMBER_MS) state.recent.delete(id);
  state.recent.set(userId, now);
}

/** This instance's part: remember the user, close their event streams, stop the replies it runs for them. */
async function disableHere(userId: string): Promise<void> {
  remember(userId);
  closeEventStreamsOf(userId);
  await Promise.all(
    activeReplyList().map(async ([conversationId, replyId]) => {
      if ((await conversationOwner({ id: conversationId })) !== userId) return;
      const reply = activeReply(conversationId);
      if (reply?.replyId === replyId) reply.controller.abort(DISABLED_REASON);
    }),
  );
}

/** On PostgreSQL, listens for other instances' disables (once per process); resolves when listening. */
export function listenForDisabledUsers(): Promise<void> {
  if (!isPostgresUrl(databaseUrl())) return Promise.resolve();
  state.listening ??= listen(CHANNEL, (payload) => {
    const { userId, disabled } = JSON.parse(payload) as { userId: string; disabled: boolean };
    if (!disabled) state.recent.delete(userId);
    else void disableHere(userId).catch(logFailure("stopping a disabled user's replies failed", { userId }));
  }).catch((error) => {
    state.listening = undefined;
    throw error;
  });
  return state.listening;
}

/** Refuses a reply for a user disabled meanwhile (called once the reply holds its conversation's lock). */
export function refuseIfDisabled(userId: string): void {
  const at = state.recent.get(userId);
  if (at !== undefined && at > Date.now() - REMEMBER_MS)
    throw new ApiError("unauthorized", "This account was disabled; sign in again once an admin enables it.");
}

/** The conversations of the user whose replies are being written, by any instance. */
async function liveConversationsOf(userId: string): Promise<string[]> {
  if (isPostgresUrl(databaseUrl())) return liveLeasesOfOwner(userId);
  const owned = await Promise.all(
    activeReplyList().map(async ([id]) => ((await conversationOwner({ id })) === userId ? id : undefined)),
  );
  return owned.filter((id): id is string => id !== undefined);
}

/**
 * Stops everything the user has running, on every instance, and resolves once their replies are stored as stopped (or
 * after STOP_WAIT_MS; a reply still written then is sent a plain Stop).
 */
export async function stopDisabledUser(userId: string): Promise<void> {
  if (isPostgresUrl(databaseUrl())) {
    await listenForDisabledUsers();
    await notify(CHANNEL, JSON.stringify({ userId, disabled: true }));
  }
  await disableHere(userId);
  const deadline = Date.now() + STOP_WAIT_MS;
  for (;;) {
    const live = await liveConversationsOf(userId);
    if (live.length === 0) return;
    if (Date.now() > deadline) {
      logFailure("a disabled user's replies did not stop in time; sending them Stop", { userId })(
        new Error(`${live.length} still running`),
      );
      await Promise.all(live.map((id) => replyLock().stop(id)));
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A user enabled again may write at once, on every instance (not only after REMEMBER_MS). */
export async function forgetDisabledUser(userId: string): Promise<void> {
  state.recent.delete(userId);
  if (isPostgresUrl(databaseUrl())) await notify(CHANNEL, JSON.stringify({ userId, disabled: false }));
}
