import { beforeEach, describe, expect, it } from "vitest";
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_TOTAL, recordSignInFailure, recordSignInSuccess, signInHold, signInRetryAfter } from "./sign-in-limit.ts";

describe("sign-in limit", () => {
  beforeEach(() => {
    (globalThis as { __hintlineSignInLimits?: unknown }).__hintlineSignInLimits = undefined;
  });

  it("blocks an address after its failures, for the rest of the minute only", () => {
    const t0 = 1_000_000;
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      expect(signInRetryAfter("a", t0 + i * 1000)).toBe(0);
      recordSignInFailure("a", "", t0 + i * 1000);
    }
    expect(signInRetryAfter("a", t0 + 10_000)).toBe(50);
    expect(signInRetryAfter("b", t0 + 10_000)).toBe(0);
    expect(signInRetryAfter("a", t0 + 60_000)).toBe(0);
  });

  it("never holds an account from everywhere: ten addresses' guesses at ann leave ann's own address free", () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) recordSignInFailure(`guesser-${i}`, "ann", 1000);
    expect(signInHold("ann-home", "ann", 2000)).toBeNull();
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) recordSignInFailure("guesser", i % 2 ? "ann" : "bob", 3000);
    expect(signInHold("guesser", "ann", 4000)).toEqual({ seconds: 59, limit: "address" });
    expect(signInHold("guesser", "cid", 4000)).toEqual({ seconds: 59, limit: "address" });
  });

  it("a success clears the address's failures for that account only", () => {
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS - 1; i++) recordSignInFailure("a", "victim", 1000);
    recordSignInSuccess("a", "own", 1500);
    recordSignInFailure("a", "victim", 2000);
    expect(signInHold("a", "own", 2500)?.limit).toBe("address");
    recordSignInSuccess("a", "victim", 3000);
    expect(signInHold("a", "victim", 3500)).toBeNull();
  });

  it("many addresses together hit the total limit, which holds everyone but an account and address known to sign in", () => {
    recordSignInSuccess("ann-home", "ann", 500);
    for (let i = 0; i < MAX_FAILURES_TOTAL; i++) recordSignInFailure(`x${i}`, "ann", 1000);
    expect(signInHold("fresh", "ann", 2000)).toEqual({ seconds: 59, limit: "server" });
    expect(signInHold("ann-home", "bob", 2000)?.limit).toBe("server");
    expect(signInHold("ann-home", "ann", 2000)).toBeNull();
    expect(signInRetryAfter("fresh", 61_000)).toBe(0);
  });
});
