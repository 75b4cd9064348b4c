// The reply lock's lease rows on PostgreSQL (lib/db/pg-live.ts): a live lease refuses another reply, and an instance
// that takes over a dead one's run adopts the lease of that same reply before it runs out — never another reply's.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { adoptLease, dropLease, liveLease, takeLease } = await import("@/lib/db/pg-live");

afterAll(() => disconnectDb());

const MINUTE = 60_000;

describe("reply leases", () => {
  it("adopts a live lease of the same reply, not of another, and any lease that ran out", async () => {
    const conversation = `adopt-${process.pid}`;
    expect(await takeLease(conversation, "r1", "dead", MINUTE)).toBe(true);
    expect(await takeLease(conversation, "r2", "other", MINUTE)).toBe(false);

    expect(await adoptLease(conversation, "r2", "taker", MINUTE)).toBe(false);
    expect(await liveLease(conversation)).toEqual({ replyId: "r1", instanceId: "dead" });
    expect(await adoptLease(conversation, "r1", "taker", MINUTE)).toBe(true);
    expect(await liveLease(conversation)).toEqual({ replyId: "r1", instanceId: "taker" });

    // Run out: adopted whatever reply it named (the stale reply is settled by whoever resumes or answers next).
    const stale = `adopt-stale-${process.pid}`;
    expect(await takeLease(stale, "r3", "dead", 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await adoptLease(stale, "r4", "taker", MINUTE)).toBe(true);
    expect(await liveLease(stale)).toEqual({ replyId: "r4", instanceId: "taker" });

    // None held: adopted as taken.
    await dropLease(conversation, "r1");
    expect(await adoptLease(conversation, "r5", "taker", MINUTE)).toBe(true);
    await Promise.all([dropLease(conversation, "r5"), dropLease(stale, "r4")]);
  });
});
