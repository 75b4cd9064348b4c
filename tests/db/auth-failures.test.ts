// The sign-in and bearer-token limit's shared rows (lib/db/auth-failures.ts) against a real database: the n-th newest
// failure of an address and of the total, the window, pruning and a success forgetting its account's failures at an address. On PostgreSQL the
// limit itself runs on these rows (every instance counts them); on SQLite it counts in memory (lib/auth/sign-in-limit.test.ts).
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb, getDb } = await import("@/lib/db/client");
const { addFailure, clearFailures, nthNewestFailures } = await import("@/lib/db/auth-failures");
const {
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_TOTAL,
  SIGN_IN_WINDOW_MS,
  recordSignInFailure,
  recordSignInSuccess,
  signInRetryAfter,
} = await import("@/lib/auth/sign-in-limit");

afterAll(async () => {
  await disconnectDb();
});

const at = (ms: number) => new Date(ms);
const unique = (name: string) => `${name}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;

describe(`failed credential checks on ${inject("databaseKind")}`, { timeout: 30_000 }, () => {
  it("finds the n-th newest failure of a key and of the total inside the window, and prunes what is older", async () => {
    const [a, b] = [unique("203.0.113.1"), unique("203.0.113.2")];
    const t0 = Date.UTC(2030, 0, 1);
    const forgetBefore = at(t0 - SIGN_IN_WINDOW_MS);
    for (let i = 0; i < 3; i++) await addFailure({ key: a, account: "", at: at(t0 + i * 1000), forgetBefore });
    await addFailure({ key: b, account: "ann", at: at(t0 + 5000), forgetBefore });
    expect(await nthNewestFailures({ key: a, since: at(t0 - 1), nth: 3, nthTotal: 4 })).toEqual({
      byKey: at(t0),
      total: at(t0),
    });
    expect(await nthNewestFailures({ key: a, since: at(t0), nth: 3, nthTotal: 2 })).toEqual({
      byKey: undefined,
      total: at(t0 + 2000),
    });
    expect(await nthNewestFailures({ key: b, since: at(t0 - 1), nth: 1, nthTotal: 5 })).toEqual({
      byKey: at(t0 + 5000),
      total: undefined,
    });
    // A failure a minute later prunes every row older than its window.
    await addFailure({
      key: b,
      account: "bob",
      at: at(t0 + 70_000),
      forgetBefore: at(t0 + 70_000 - SIGN_IN_WINDOW_MS),
    });
    const db = await getDb();
    expect(
      (await db.authFailure.findMany({ where: { key: { in: [a, b] } }, select: { key: true } })).map((r) => r.key),
    ).toEqual([b]);
    // A success forgets only its own account's failures at that address.
    await clearFailures(b, "ann");
    expect(await db.authFailure.count({ where: { key: b } })).toBe(1);
    await clearFailures(b, "bob");
    expect(await db.authFailure.count({ where: { key: b } })).toBe(0);
  });

  it("limits an address after ten failures for the rest of the minute, and a success forgets them", async () => {
    const address = unique("203.0.113.9");
    const t0 = Date.now();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      expect(await signInRetryAfter(address, t0 + i)).toBe(0);
      await recordSignInFailure(address, i % 2 ? "ann" : "", t0 + i);
    }
    expect(await signInRetryAfter(address, t0 + 10_000)).toBe(50);
    expect(await signInRetryAfter(unique("other"), t0 + 10_000)).toBe(0);
    await recordSignInSuccess(address, "ann");
    expect(await signInRetryAfter(address, t0 + 10_000)).toBe(0); // five left: under the limit
    for (let i = 0; i < 5; i++) await recordSignInFailure(address, "ann", t0 + 20 + i);
    expect(await signInRetryAfter(address, t0 + 10_000)).toBe(50);
    expect(await signInRetryAfter(address, t0 + SIGN_IN_WINDOW_MS + 30)).toBe(0); // the window has passed
    await recordSignInSuccess(address, "");
    expect(await signInRetryAfter(address, t0 + 10_000)).toBe(0);
  });

  it("limits everyone once the failures of all addresses reach the total", async () => {
    const t0 = Date.now() + 5 * SIGN_IN_WINDOW_MS; // past every other test's failures
    for (let i = 0; i < MAX_FAILURES_TOTAL; i++) await recordSignInFailure(unique("spray"), "", t0);
    expect(await signInRetryAfter(unique("fresh"), t0 + 1000)).toBe(59);
    expect(await signInRetryAfter(unique("fresh"), t0 + SIGN_IN_WINDOW_MS)).toBe(0);
  });
});
