// A burst of transactions queues instead of failing: Prisma's default gives up on starting one after 2 s (P2028),
// which refused replies when two dozen started at once on a loaded machine. Each transaction here holds its
// connection (PostgreSQL: a pool of 10) or SQLite's one writer long enough that the last must wait about 3 s.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb, getDb, isPostgresUrl } = await import("@/lib/db/client");
const isPostgres = () => isPostgresUrl(process.env.DATABASE_URL ?? "");

afterAll(() => disconnectDb());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a burst of transactions", () => {
  it("all commit, the last ones after waiting longer than Prisma's default 2 s", async () => {
    const db = await getDb();
    const [count, holdMs] = isPostgres() ? [30, 1_000] : [20, 160];
    const started = Date.now();
    const results = await Promise.allSettled(
      Array.from({ length: count }, (_, i) =>
        db.$transaction(async (tx) => {
          await tx.conversation.count();
          await sleep(holdMs);
          return i;
        }),
      ),
    );
    const failures = results.flatMap((r) =>
      r.status === "rejected" ? [String((r.reason as Error)?.message ?? r.reason).slice(0, 200)] : [],
    );
    expect(failures).toEqual([]);
    // The queue really was longer than the default wait, so the test would have failed with it.
    expect(Date.now() - started).toBeGreaterThan(2_500);
  }, 60_000);
});
