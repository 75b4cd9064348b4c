import { beforeEach, describe, expect, it } from "vitest";
import {
  MAX_FAILURES_PER_ADDRESS,
  MAX_FAILURES_TOTAL,
  recordSignInFailure,
  recordSignInSuccess,
  signInHold,
  signInRetryAfter,
} from "./sign-in-limit.ts";

// In this process's memory, as on SQLite; tests/db/auth-failures.test.ts holds PostgreSQL's shared rows to the same.
describe("sign-in limit", () => {
  beforeEach(() => {
    (globalThis as { __hintlineSignInLimits?: unknown }).__hintlineSignInLimits = undefined;
  });

  it("blocks an address after its failures, for the rest of the minute only", async () => {
    const t0 = 1_000_000;
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      expect(await signInRetryAfter("a", t0 + i * 1000)).toBe(0);
      await recordSignInFailure("a", "", t0 + i * 1000);
    }
    expect(await signInRetryAfter("a", t0 + 10_000)).toBe(50);
    expect(await signInRetryAfter("b", t0 + 10_000)).toBe(0);
    expect(await signInRetryAfter("a", t0 + 60_000)).toBe(0);
  });

  it("never holds an account from everywhere: ten addresses' guesses at ann leave ann's own address free", async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) await recordSignInFailure(`guesser-${i}`, "ann", 1000);
    expect(await signInHold("ann-home", "ann", 2000)).toBeNull();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++)
      await recordSignInFailure("guesser", i % 2 ? "ann" : "bob", 3000);
    expect(await signInHold("guesser", "ann", 4000)).toEqual({ seconds: 59, limit: "address" });
    expect(await signInHold("guesser", "cid", 4000)).toEqual({ seconds: 59, limit: "address" });
  });

  it("a success clears the address's failures for that account only", async () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS - 1; i++) await recordSignInFailure("a", "victim", 1000);
    await recordSignInSuccess("a", "own", 1500);
    await recordSignInFailure("a", "victim", 2000);
    expect((await signInHold("a", "own", 2500))?.limit).toBe("address");
    await recordSignInSuccess("a", "victim", 3000);
    expect(await signInHold("a", "victim", 3500)).toBeNull();
  });

  it("many addresses together hit the total limit, which holds everyone but an account and address known to sign in", async () => {
    await recordSignInSuccess("ann-home", "ann", 500);
    for (let i = 0; i < MAX_FAILURES_TOTAL; i++) await recordSignInFailure(`x${i}`, "ann", 1000);
    expect(await signInHold("fresh", "ann", 2000)).toEqual({ seconds: 59, limit: "server" });
    expect((await signInHold("ann-home", "bob", 2000))?.limit).toBe("server");
    expect(await signInHold("ann-home", "ann", 2000)).toBeNull();
    expect(await signInRetryAfter("fresh", 61_000)).toBe(0);
  });
});
