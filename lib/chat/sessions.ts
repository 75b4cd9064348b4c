// Which sign-in sessions were signed out. Every request with a session cookie asks the database, so a session signed
// out on one instance is refused on every other at once. Only "revoked" answers are remembered (a revoked session
// never comes back), in a small bounded set shared through globalThis by the proxy and the routes.
import type { Session } from "../auth/token.ts";
import { isRevokedSession, revokeSession } from "../db/sessions.ts";

const MAX_REMEMBERED = 1_000;
const holder = globalThis as unknown as { __hintlineRevokedSessions?: Set<string> };

function remember(id: string): void {
  holder.__hintlineRevokedSessions ??= new Set();
  const revoked = holder.__hintlineRevokedSessions;
  if (revoked.size >= MAX_REMEMBERED) revoked.delete(revoked.values().next().value!);
  revoked.add(id);
}

export async function isSessionRevoked(id: string): Promise<boolean> {
  if (holder.__hintlineRevokedSessions?.has(id)) return true;
  const revoked = await isRevokedSession(id);
  if (revoked) remember(id);
  return revoked;
}

export async function endSession(session: Session): Promise<void> {
  await revokeSession({ id: session.id, expiresAt: session.expiresAt });
  remember(session.id);
}
