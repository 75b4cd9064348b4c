// What an admin of accounts mode does: invite people, disable or enable users, make them admin. Nothing here reads
// another user's conversations. Outside accounts mode, and for members, these answer as unknown routes do.
import { randomBytes } from "node:crypto";
import { generateId } from "ai";
import { z } from "zod";
import { ApiError } from "../api/errors.ts";
import { requestOrigin } from "../auth/accounts.ts";
import { authMode } from "../auth/mode.ts";
import { requireAdmin, type Viewer } from "../auth/viewer.ts";
import { createInvitation, listUsers, type UserListing, updateUser, userListing } from "../db/accounts.ts";
import { setStoredBudget, storedBudgets } from "../db/usage.ts";
import { budgetAndUsage } from "./budgets.ts";
import { forgetDisabledUser, stopDisabledUser } from "./disabled-users.ts";

export const INVITATION_DAYS = 7;

/**
 * A limit: a non-negative finite number (zod refuses the Infinity that JSON's 1e999 parses to), or null to clear it
 * (the environment's default applies again).
 */
const budgetFigure = z.number().nonnegative().nullable().optional();

export const editUserSchema = z
  .object({
    disabled: z.boolean().optional(),
    admin: z.boolean().optional(),
    budget: z.object({ tokensPerDay: budgetFigure, usdPerMonth: budgetFigure }).strict().optional(),
  })
  .strict()
  .refine((v) => v.disabled !== undefined || v.admin !== undefined || v.budget !== undefined, {
    message: "give disabled, admin or budget",
  });

/** A user as the admin's list shows them: with the budget that applies and their usage against it. */
export type AdminUserView = UserListing & Awaited<ReturnType<typeof budgetAndUsage>>;

async function withBudgets(users: UserListing[]): Promise<AdminUserView[]> {
  const budgets = await storedBudgets({ ids: users.map((u) => u.id) });
  return Promise.all(
    users.map(async (user) => ({ ...user, ...(await budgetAndUsage(user.id, budgets.get(user.id))) })),
  );
}

function requireAccountsAdmin(viewer: Viewer): asserts viewer is Extract<Viewer, { kind: "user" }> {
  if (authMode() !== "accounts" || viewer.kind !== "user") throw new ApiError("not_found", "No such route.");
  requireAdmin(viewer);
}

/** A sign-up link for one person, valid for a week; only its hash is stored. */
export async function inviteSomeone(viewer: Viewer, request: Request): Promise<{ url: string; expiresAt: string }> {
  requireAccountsAdmin(viewer);
  const token = randomBytes(24).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_DAYS * 24 * 60 * 60 * 1000);
  await createInvitation({ id: `inv_${generateId()}`, token, createdById: viewer.userId, expiresAt });
  return { url: `${requestOrigin(request)}/sign-up?invitation=${token}`, expiresAt: expiresAt.toISOString() };
}

export async function accountUsers(viewer: Viewer): Promise<AdminUserView[]> {
  requireAccountsAdmin(viewer);
  return withBudgets(await listUsers());
}

export async function editAccountUser(
  viewer: Viewer,
  id: string,
  patch: z.infer<typeof editUserSchema>,
): Promise<AdminUserView> {
  requireAccountsAdmin(viewer);
  if (id === viewer.userId && (patch.disabled === true || patch.admin === false)) {
    throw new ApiError("conflict", "You cannot disable yourself or take away your own admin role; another admin can.");
  }
  const { budget, ...roles } = patch;
  // Checked in the update itself: two admins taking each other's role at once (on two instances) leave one. A budget
  // alone changes no role: the user is only looked up.
  const user =
    roles.disabled === undefined && roles.admin === undefined
      ? await userListing({ id })
      : await updateUser({ id, ...roles });
  if (!user) throw new ApiError("not_found", `User ${id} does not exist.`);
  if (user === "last-admin") {
    throw new ApiError(
      "conflict",
      "There must be at least one enabled admin: this change would leave none, so nothing was changed. Make another user an admin first.",
    );
  }
  // Written once the role change was accepted: a refused request changes nothing.
  if (budget) await setStoredBudget({ userId: id, ...budget });
  // Signed out everywhere already; their replies and event streams end too, on every instance.
  if (patch.disabled === true) await stopDisabledUser(id);
  if (patch.disabled === false) await forgetDisabledUser(id);
  return (await withBudgets([user]))[0]!;
}
