// What accounts mode's pages need to know: who is signed in (GET /api/me, the user menu) and whether the next
// sign-up creates the first account (the sign-up page then says it makes the admin).
import { type AuthMode, authMode } from "../auth/mode.ts";
import type { Viewer } from "../auth/viewer.ts";
import { countUsers } from "../db/accounts.ts";

export type Me = { mode: AuthMode; user: { id: string; email: string; name: string; admin: boolean } | null };

/** The signed-in user of accounts mode; null in open and token mode (one person, no account). */
export function aboutMe(viewer: Viewer): Me {
  const mode = authMode();
  if (viewer.kind !== "user") return { mode, user: null };
  return { mode, user: { id: viewer.userId, email: viewer.email, name: viewer.name, admin: viewer.admin } };
}

export async function noAccountYet(): Promise<boolean> {
  return (await countUsers()) === 0;
}
