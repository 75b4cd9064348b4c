// Which sign-in sessions were signed out. Every request with a session cookie asks, so the revoked ids are read from
// the database once per process and kept in memory (shared through globalThis by the proxy and the routes, which
// run in the same process); signing out writes the row first, then updates the copy.
import type { Session } from "../auth.ts";
import { listRevokedSessions, revokeSession } from "../db/sessions.ts";

const holder = globalThis as unknown as { __hintlineRevokedSessions?: Promise<Set<string>> };

function revokedIds(): Promise<Set<string>> {
  if (!holder.__hintlineRevokedSessions) {
    const loading = listRevokedSessions().then((ids) => new Set(ids));
    holder.__hintlineRevokedSessions = loading;
    loading.catch(() => {
      if (holder.__hintlineRevokedSessions === loading) holder.__hintlineRevokedSessions = undefined;
    });
  }
  return holder.__hintlineRevokedSessions;
}

export async function isSessionRevoked(id: string): Promise<boolean> {
  return (await revokedIds()).has(id);
}

export async function endSession(session: Session): Promise<void> {
  await revokeSession({ id: session.id, expiresAt: session.expiresAt });
  (await revokedIds()).add(session.id);
}
