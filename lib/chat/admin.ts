// What an admin of accounts mode does: invite people, disable or enable users, make them admin. Nothing here reads
// another user's conversations. Outside accounts mode, and for members, these answer as unknown routes do.
import { randomBytes } from "node:crypto";
import { generateId } from "ai";
import { z } from "zod";
import { ApiError } from "../api/errors.ts";
import { requestOrigin } from "../auth/accounts.ts";
import { authMode } from "../auth/mode.ts";
import { requireAdmin, type Viewer } from "../auth/viewer.ts";
import { createInvitation, listUsers, type UserListing, updateUser } from "../db/accounts.ts";
import { forgetDisabledUser, stopDisabledUser } from "./disabled-users.ts";

export const INVITATION_DAYS = 7;

export const editUserSchema = z
  .object({ disabled: z.boolean().optional(), admin: z.boolean().optional() })
  .strict()
  .refine((v) => v.disabled !== undefined || v.admin !== undefined, { message: "give disabled or admin" });

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

export async function accountUsers(viewer: Viewer): Promise<UserListing[]> {
  requireAccountsAdmin(viewer);
  return listUsers();
}

export async function editAccountUser(
  viewer: Viewer,
  id: string,
  patch: z.infer<typeof editUserSchema>,
): Promise<UserListing> {
  requireAccountsAdmin(viewer);
  if (id === viewer.userId && (patch.disabled === true || patch.admin === false)) {
    throw new ApiError("conflict", "You cannot disable yourself or take away your own admin role; another admin can.");
  }
  // Checked in the update itself: two admins taking each other's role at once (on two instances) leave one.
  const user = await updateUser({ id, ...patch });
  if (!user) throw new ApiError("not_found", `User ${id} does not exist.`);
  if (user === "last-admin") {
    throw new ApiError(
      "conflict",
      "There must be at least one enabled admin: this change would leave none, so nothing was changed. Make another user an admin first.",
    );
  }
  // Signed out everywhere already; their replies and event streams end too, on every instance.
  if (patch.disabled === true) await stopDisabledUser(id);
  if (patch.disabled === false) await forgetDisabledUser(id);
  return user;
}
