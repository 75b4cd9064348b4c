import { beforeEach, describe, expect, it } from "vitest";
import { MAX_FAILURES_PER_ADDRESS, MAX_FAILURES_TOTAL, recordSignInFailure, recordSignInSuccess, signInRetryAfter } from "./sign-in-limit.ts";

// In this process's memory, as on SQLite; tests/db/auth-failures.test.ts holds PostgreSQL's shared rows to the same.
describe("sign-in limit", () => {
  beforeEach(() => {
    (globalThis as { __hintlineSignInFailures?: unknown }).__hintlineSignInFailures = undefined;
  });

  it("blocks an address after its failures, for the rest of the minute only", async () => {
    const t0 = 1_000_000;
    for (let i = 0; i < MAX_FAILURES_PER_ADDRESS; i++) {
      expect(await signInRetryAfter("a", t0 + i * 1000)).toBe(0);
      await recordSignInFailure("a", t0 + i * 1000);
    }
    expect(await signInRetryAfter("a", t0 + 10_000)).toBe(50);
    expect(await signInRetryAfter("b", t0 + 10_000)).toBe(0);
    expect(await signInRetryAfter("a", t0 + 60_000)).toBe(0);
  });

  it("a success clears the address; many addresses together hit the total limit", async () => {
    await recordSignInFailure("a", 0);
    await recordSignInSuccess("a");
    for (let i = 0; i < MAX_FAILURES_TOTAL; i++) await recordSignInFailure(`x${i}`, 1000);
    expect(await signInRetryAfter("fresh", 2000)).toBe(59);
    expect(await signInRetryAfter("fresh", 61_000)).toBe(0);
  });
});
