// The reply lock's lease rows on PostgreSQL (lib/db/pg-live.ts): a live lease refuses another reply, and an instance
// that takes over a dead one's run adopts the lease of that same reply before it runs out — never another reply's.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { adoptLease, dropLease, liveLease, renewLeases, takeLease } = await import("@/lib/db/pg-live");

afterAll(() => disconnectDb());

const MINUTE = 60_000;

describe("reply leases", () => {
  it("adopts a live lease of the same reply, not of another, and any lease that ran out", async () => {
    const conversation = `adopt-${process.pid}`;
    expect(await takeLease(conversation, "r1", "dead", MINUTE)).toBe(true);
    expect(await takeLease(conversation, "r2", "other", MINUTE)).toBe(false);

    expect(await adoptLease(conversation, "r2", "taker", MINUTE)).toBe(false);
    expect(await liveLease(conversation)).toMatchObject({ replyId: "r1", instanceId: "dead" });
    expect(await adoptLease(conversation, "r1", "taker", MINUTE)).toBe(true);
    expect(await liveLease(conversation)).toMatchObject({ replyId: "r1", instanceId: "taker" });

    // Run out: adopted whatever reply it named (the stale reply is settled by whoever resumes or answers next).
    const stale = `adopt-stale-${process.pid}`;
    expect(await takeLease(stale, "r3", "dead", 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await adoptLease(stale, "r4", "taker", MINUTE)).toBe(true);
    expect(await liveLease(stale)).toMatchObject({ replyId: "r4", instanceId: "taker" });

    // None held: adopted as taken.
    await dropLease(conversation, "r1", "taker");
    expect(await adoptLease(conversation, "r5", "taker", MINUTE)).toBe(true);
    await Promise.all([dropLease(conversation, "r5", "taker"), dropLease(stale, "r4", "taker")]);
  });

  it("fences an instance whose run was taken over: its renewal names the reply, and its release keeps the adopter's row", async () => {
    const conversation = `fence-${process.pid}`;
    const other = `fence-other-${process.pid}`;
    expect(await takeLease(conversation, "f1", "paused", 1_000)).toBe(true);
    expect(await takeLease(other, "f2", "paused", 1_000)).toBe(true);
    const before = (await liveLease(conversation))!.leaseUntil;
    expect(before.getTime() - Date.now()).toBeLessThanOrEqual(1_000);
    // The paused instance's first reply is adopted; it wakes and renews both.
    expect(await adoptLease(conversation, "f1", "taker", 1_000)).toBe(true);
    expect(await renewLeases(["f1", "f2"], MINUTE, "paused")).toEqual(["f1"]);
    const adopted = await liveLease(conversation);
    expect(adopted).toMatchObject({ replyId: "f1", instanceId: "taker" });
    expect(adopted!.leaseUntil.getTime() - Date.now()).toBeLessThanOrEqual(1_000);
    expect((await liveLease(other))!.leaseUntil.getTime() - Date.now()).toBeGreaterThan(30_000);
    // Its release drops only its own row.
    await dropLease(conversation, "f1", "paused");
    expect(await liveLease(conversation)).toMatchObject({ replyId: "f1", instanceId: "taker" });
    await Promise.all([dropLease(conversation, "f1", "taker"), dropLease(other, "f2", "paused")]);
    expect(await renewLeases(["f1", "f2"], MINUTE, "paused")).toEqual([]);
  });
});
