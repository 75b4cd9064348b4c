// What accounts mode's pages need to know: who is signed in (GET /api/me, the user menu) and whether the next
// sign-up creates the first account (the sign-up page then says it makes the admin).
import { type AuthMode, authMode } from "../auth/mode.ts";
import type { Viewer } from "../auth/viewer.ts";
import { countUsers } from "../db/accounts.ts";
import { type BudgetView, budgetAndUsage, type UsageView } from "./budgets.ts";

export type Me = {
  mode: AuthMode;
  user: { id: string; email: string; name: string; admin: boolean } | null;
  /** Accounts mode: the budget that applies to the user and what they spent against it; null otherwise. */
  budget: BudgetView | null;
  usage: UsageView | null;
};

/** The signed-in user of accounts mode; null in open and token mode (one person, no account, no budget). */
export async function aboutMe(viewer: Viewer): Promise<Me> {
  const mode = authMode();
  if (viewer.kind !== "user") return { mode, user: null, budget: null, usage: null };
  const { budget, usage } = await budgetAndUsage(viewer.userId);
  return {
    mode,
    user: { id: viewer.userId, email: viewer.email, name: viewer.name, admin: viewer.admin },
    budget,
    usage,
  };
}

export async function noAccountYet(): Promise<boolean> {
  return (await countUsers()) === 0;
}
