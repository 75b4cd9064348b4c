import { describe, expect, it } from "vitest";
import {
  failuresAfterLoss,
  RESUBSCRIBE_MAX_DELAY_MS,
  readingDue,
  resubscribeDelayMs,
  SUBSCRIPTION_IDLE_MS,
  SUBSCRIPTION_STABLE_MS,
  subscriptionIdle,
} from "./state-subscription-rules.ts";

describe("state subscription rules", () => {
  it("a reading is due when its refresh passed or an update was pushed, not before", () => {
    const startedAt = 1_000_000;
    const at = (ms: number, pushed = false) =>
      readingDue({ nowMs: startedAt + ms, startedAt, refreshSeconds: 3600, pushed });
    expect(at(1_000)).toBe(false);
    expect(at(3_599_999)).toBe(false);
    expect(at(3_600_000)).toBe(true);
    expect(at(1_000, true)).toBe(true);
    // Never read: due at once.
    expect(readingDue({ nowMs: 0, startedAt: Number.NEGATIVE_INFINITY, refreshSeconds: 10, pushed: false })).toBe(true);
  });

  it("waits 2 s after a first failure, doubling to at most 5 minutes", () => {
    expect([1, 2, 3, 4, 5].map(resubscribeDelayMs)).toEqual([2_000, 4_000, 8_000, 16_000, 32_000]);
    expect(resubscribeDelayMs(9)).toBe(RESUBSCRIBE_MAX_DELAY_MS);
    expect(resubscribeDelayMs(10_000)).toBe(RESUBSCRIBE_MAX_DELAY_MS);
    expect(resubscribeDelayMs(0)).toBe(2_000);
  });

  it("a subscription that lived long before it was lost starts its count afresh; a short-lived one adds a failure", () => {
    expect(failuresAfterLoss(0, 1_000)).toBe(1);
    expect(failuresAfterLoss(4, 1_000)).toBe(5);
    expect(failuresAfterLoss(4, SUBSCRIPTION_STABLE_MS)).toBe(1);
  });

  it("a subscription unused for SUBSCRIPTION_IDLE_MS is idle", () => {
    expect(subscriptionIdle(0, SUBSCRIPTION_IDLE_MS - 1)).toBe(false);
    expect(subscriptionIdle(0, SUBSCRIPTION_IDLE_MS)).toBe(true);
  });
});
