// Failed sign-ins and bearer-token checks as rows every instance counts (PostgreSQL; lib/auth/sign-in-limit.ts).
import { getDb } from "./client.ts";

/**
 * The time of the `nth` newest failure from `key` (an address) after `since`, and of the `nthTotal` newest from
 * anywhere: each undefined when there are fewer. A limit of n is reached when the n-th newest failure is inside the
 * window.
 */
export async function nthNewestFailures({
  key,
  since,
  nth,
  nthTotal,
}: {
  key: string;
  since: Date;
  nth: number;
  nthTotal: number;
}) {
  const db = await getDb();
  const select = { at: true } as const;
  const [byKey, total] = await Promise.all([
    db.authFailure.findFirst({ where: { key, at: { gt: since } }, orderBy: { at: "desc" }, skip: nth - 1, select }),
    db.authFailure.findFirst({ where: { at: { gt: since } }, orderBy: { at: "desc" }, skip: nthTotal - 1, select }),
  ]);
  return { byKey: byKey?.at, total: total?.at };
}

/** Records one failure and forgets those older than `forgetBefore` (no limit looks at them again). */
export async function addFailure({
  key,
  account,
  at,
  forgetBefore,
}: {
  key: string;
  account: string;
  at: Date;
  forgetBefore: Date;
}): Promise<void> {
  const db = await getDb();
  await db.$transaction([
    db.authFailure.create({ data: { key, account, at } }),
    db.authFailure.deleteMany({ where: { at: { lte: forgetBefore } } }),
  ]);
}

/** Forgets the failures from `key` at `account` (a right password or token from there for that account). */
export async function clearFailures(key: string, account: string): Promise<void> {
  const db = await getDb();
  await db.authFailure.deleteMany({ where: { key, account } });
}
