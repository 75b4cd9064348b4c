// Failed sign-ins and bearer-token checks as rows every instance counts (PostgreSQL; lib/auth/sign-in-limit.ts).
import { getDb } from "./client.ts";

/**
 * The time of the `nth` newest failure of `key` after `since`, and of the `nthTotal` newest counted in the total:
 * each undefined when there are fewer. A limit of n is reached when the n-th newest failure is inside the window.
 */
export async function nthNewestFailures({ key, since, nth, nthTotal }: { key: string; since: Date; nth: number; nthTotal: number }) {
  const db = await getDb();
  const select = { at: true } as const;
  const [byKey, total] = await Promise.all([
    db.authFailure.findFirst({ where: { key, at: { gt: since } }, orderBy: { at: "desc" }, skip: nth - 1, select }),
    db.authFailure.findFirst({ where: { total: true, at: { gt: since } }, orderBy: { at: "desc" }, skip: nthTotal - 1, select }),
  ]);
  return { byKey: byKey?.at, total: total?.at };
}

/** Records one failure and forgets those older than `forgetBefore` (no limit looks at them again). */
export async function addFailure({ key, total, at, forgetBefore }: { key: string; total: boolean; at: Date; forgetBefore: Date }): Promise<void> {
  const db = await getDb();
  await db.$transaction([db.authFailure.create({ data: { key, total, at } }), db.authFailure.deleteMany({ where: { at: { lte: forgetBefore } } })]);
}

/** Forgets the failures of `key` (a right password or token from there). */
export async function clearFailures(key: string): Promise<void> {
  const db = await getDb();
  await db.authFailure.deleteMany({ where: { key } });
}
