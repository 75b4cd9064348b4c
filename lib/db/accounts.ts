// Accounts mode's own rows beside better-auth's: shared settings, invitations, the first admin's claim, users' state.
import { createHash } from "node:crypto";
import { databaseUrl, getDb, isPostgresUrl } from "./client.ts";
import { storedTime } from "./sqlite-direct-rows.ts";
import { isUniqueViolation } from "./workspaces.ts";

/** The value stored under `key`, made by `make` the first time (every instance then reads the same one). */
export async function sharedSetting({ key, make }: { key: string; make: () => string }): Promise<string> {
  const db = await getDb();
  const existing = await db.appSetting.findUnique({ where: { key } });
  if (existing) return existing.value;
  try {
    return (await db.appSetting.create({ data: { key, value: make() } })).value;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    return (await db.appSetting.findUniqueOrThrow({ where: { key } })).value;
  }
}

/** Takes `key` for `value` when no one has; false when it was taken already. */
export async function claimSetting({ key, value }: { key: string; value: string }): Promise<boolean> {
  const db = await getDb();
  try {
    await db.appSetting.create({ data: { key, value } });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

export async function releaseSetting({ key, value }: { key: string; value: string }): Promise<void> {
  await (await getDb()).appSetting.deleteMany({ where: { key, value } });
}

export async function countUsers(): Promise<number> {
  return (await getDb()).user.count();
}

export type UserState = { id: string; email: string; name: string; admin: boolean; disabled: boolean };

export async function findUser({ id }: { id: string }): Promise<UserState | null> {
  const user = await (await getDb()).user.findUnique({ where: { id } });
  return (
    user && {
      id: user.id,
      email: user.email,
      name: user.name,
      admin: user.role === "admin",
      disabled: user.banned === true,
    }
  );
}

/** Everything of open or token mode (no owner yet) becomes the user's: the first admin's, when accounts mode starts. */
export async function makeFirstAdmin({ userId }: { userId: string }): Promise<void> {
  const db = await getDb();
  await db.$transaction([
    db.user.update({ where: { id: userId }, data: { role: "admin" } }),
    db.workspace.updateMany({ where: { ownerId: null }, data: { ownerId: userId } }),
    db.conversation.updateMany({ where: { ownerId: null }, data: { ownerId: userId } }),
    db.memoryEntry.updateMany({ where: { authorId: null, author: { not: "system" } }, data: { authorId: userId } }),
  ]);
}

export const hashInvitationToken = (token: string) => createHash("sha256").update(token).digest("hex");

export async function createInvitation({
  id,
  token,
  createdById,
  expiresAt,
}: {
  id: string;
  token: string;
  createdById: string;
  expiresAt: Date;
}): Promise<void> {
  await (await getDb()).invitation.create({
    data: { id, tokenHash: hashInvitationToken(token), createdById, expiresAt },
  });
}

/** Marks the invitation used when it is valid and unused (one sign-up per link, even when two race); its id or null. */
export async function takeInvitation({
  token,
  now = new Date(),
}: {
  token: string;
  now?: Date;
}): Promise<string | null> {
  const db = await getDb();
  const tokenHash = hashInvitationToken(token);
  const taken = await db.invitation.updateMany({
    where: { tokenHash, usedAt: null, expiresAt: { gt: now } },
    data: { usedAt: now },
  });
  if (taken.count !== 1) return null;
  return (await db.invitation.findUnique({ where: { tokenHash }, select: { id: true } }))?.id ?? null;
}

export async function giveBackInvitation({ id }: { id: string }): Promise<void> {
  await (await getDb()).invitation.updateMany({ where: { id, usedById: null }, data: { usedAt: null } });
}

export async function markInvitationUsed({ id, userId }: { id: string; userId: string }): Promise<void> {
  await (await getDb()).invitation.update({ where: { id }, data: { usedById: userId } });
}

export type UserListing = UserState & { createdAt: string };

type UserRow = { id: string; email: string; name: string; role: string | null; banned: unknown; createdAt: unknown };

const toListing = (u: UserRow): UserListing => ({
  id: u.id,
  email: u.email,
  name: u.name,
  admin: u.role === "admin",
  // A raw SQLite row holds 0/1 (a number or a BigInt); PostgreSQL's and Prisma's a boolean.
  disabled: u.banned === true || Number(u.banned) === 1,
  createdAt: new Date(u.createdAt as string | Date).toISOString(),
});

export async function userListing({ id }: { id: string }): Promise<UserListing | null> {
  const row = await (await getDb()).user.findUnique({ where: { id } });
  return row && toListing(row);
}

export async function listUsers(): Promise<UserListing[]> {
  const rows = await (await getDb()).user.findMany({ orderBy: { createdAt: "asc" } });
  return rows.map(toListing);
}

/** The names of these users (their email when the name is empty), by id; unknown ids are left out. */
export async function userNames({ ids }: { ids: readonly string[] }): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await (await getDb()).user.findMany({
    where: { id: { in: [...ids] } },
    select: { id: true, name: true, email: true },
  });
  return new Map(rows.map((u) => [u.id, u.name.trim() || u.email]));
}

// After the change the user is still an enabled admin, or was none before it, or another enabled admin remains. On
// PostgreSQL the enabled admins are locked in id order first: of two statements that each take an admin away (two
// admins demoting each other on two instances), the second waits for the first, then counts without the one it took.
// SQLite runs one writing statement at a time, also across processes. $1 id, $2 role, $3 banned, $4 updatedAt.
const enabledAdmin = (row: string) => `(COALESCE(${row}"role", '') = 'admin' AND NOT COALESCE(${row}"banned", false))`;
const keepsAnAdmin = (others: string) => `"id" = $1 AND (
    (COALESCE($2, "role", '') = 'admin' AND NOT COALESCE($3, "banned", false))
    OR NOT ${enabledAdmin("")}
    OR EXISTS (SELECT 1 FROM ${others} WHERE ${enabledAdmin("o.")} AND o."id" <> $1))`;
const SET_USER = `UPDATE "user" SET "role" = COALESCE($2, "role"), "banned" = COALESCE($3, "banned"), "updatedAt" = $4`;
const RETURNED = `RETURNING "id", "email", "name", "role", "banned", "createdAt"`;
const POSTGRES_UPDATE = `WITH o AS MATERIALIZED (SELECT "id", "role", "banned" FROM "user" WHERE ${enabledAdmin("")} ORDER BY "id" FOR UPDATE)
  ${SET_USER} WHERE ${keepsAnAdmin("o")} ${RETURNED}`;
const SQLITE_UPDATE = `${SET_USER} WHERE ${keepsAnAdmin(`"user" o`)} ${RETURNED}`;

/** SQLite's form of a statement written with $1…$n: a plain "?" each, and the arguments in the order they appear. */
function positional(sql: string, args: readonly unknown[]): [string, ...unknown[]] {
  const ordered: unknown[] = [];
  const text = sql.replace(/\$(\d+)/g, (_, n: string) => {
    ordered.push(args[Number(n) - 1]);
    return "?";
  });
  return [text, ...ordered];
}

/**
 * Disables or enables a user, makes them admin or not, in one conditional statement that never leaves no enabled admin
 * (also when two admins take each other's role at once, on two instances); a disabled user's sessions are deleted in
 * the same transaction (every instance reads sessions from the database, so they are signed out everywhere at once).
 * null: no such user; "last-admin": refused, nothing changed.
 */
export async function updateUser({
  id,
  disabled,
  admin,
}: {
  id: string;
  disabled?: boolean;
  admin?: boolean;
}): Promise<UserListing | "last-admin" | null> {
  const db = await getDb();
  const role = admin === undefined ? null : admin ? "admin" : "user";
  const postgres = isPostgresUrl(databaseUrl());
  const row = await db.$transaction(async (tx) => {
    const now = new Date();
    const [updated] = postgres
      ? await tx.$queryRawUnsafe<UserRow[]>(POSTGRES_UPDATE, id, role, disabled ?? null, now)
      : await tx.$queryRawUnsafe<UserRow[]>(
          ...positional(SQLITE_UPDATE, [id, role, disabled === undefined ? null : Number(disabled), storedTime(now)]),
        );
    if (updated && disabled) await tx.session.deleteMany({ where: { userId: id } });
    return updated;
  });
  if (row) return toListing(row);
  return (await db.user.count({ where: { id } })) > 0 ? "last-admin" : null;
}
