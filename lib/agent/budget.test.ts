import { describe, expect, it } from "vitest";
import { budgetRefusal, budgetWindows, resetWords } from "./budget.ts";

const at = (iso: string) => new Date(iso);
const spent = (dayTokens: number, monthUsd: number) => ({
  day: { tokens: dayTokens, usd: 0 },
  month: { tokens: dayTokens, usd: monthUsd },
});

describe("budget windows", () => {
  it("are the person's day and month in their zone, not UTC's", () => {
    // 23:30 UTC on 6 Dec is already 7 Dec in Paris (UTC+1) and 13:15 on 7 Dec in Chatham (UTC+13:45).
    const paris = budgetWindows(at("2026-12-06T23:30:00Z"), "Europe/Paris");
    expect(paris.day).toEqual({ from: at("2026-12-06T23:00:00Z"), to: at("2026-12-07T23:00:00Z") });
    expect(paris.month).toEqual({ from: at("2026-11-30T23:00:00Z"), to: at("2026-12-31T23:00:00Z") });
    const chatham = budgetWindows(at("2026-12-06T23:30:00Z"), "Pacific/Chatham");
    expect(chatham.day).toEqual({ from: at("2026-12-06T10:15:00Z"), to: at("2026-12-07T10:15:00Z") });
    // Still 6 Dec in Honolulu (UTC-10).
    const honolulu = budgetWindows(at("2026-12-06T23:30:00Z"), "Pacific/Honolulu");
    expect(honolulu.day).toEqual({ from: at("2026-12-06T10:00:00Z"), to: at("2026-12-07T10:00:00Z") });
  });

  it("follow the zone's clock changes: a 23-hour day, and a month that ends in another offset", () => {
    const springForward = budgetWindows(at("2026-03-08T12:00:00Z"), "America/New_York");
    expect(springForward.day).toEqual({ from: at("2026-03-08T05:00:00Z"), to: at("2026-03-09T04:00:00Z") });
    const march = budgetWindows(at("2026-03-20T12:00:00Z"), "Europe/Paris");
    expect(march.month).toEqual({ from: at("2026-02-28T23:00:00Z"), to: at("2026-03-31T22:00:00Z") });
  });

  it("start a day whose midnight the clock skips at its first instant", () => {
    // Santiago moves from 00:00 to 01:00 on 6 Sep 2026: the day starts at 01:00 local (04:00 UTC).
    const skipped = budgetWindows(at("2026-09-06T15:00:00Z"), "America/Santiago");
    expect(skipped.day.from).toEqual(at("2026-09-06T04:00:00Z"));
    expect(skipped.day.to).toEqual(at("2026-09-07T03:00:00Z"));
  });

  it("run from the last day of the year into the next", () => {
    const w = budgetWindows(at("2026-12-31T20:00:00Z"), "Asia/Kathmandu");
    expect(w.day).toEqual({ from: at("2026-12-31T18:15:00Z"), to: at("2027-01-01T18:15:00Z") });
    expect(w.month).toEqual({ from: at("2026-12-31T18:15:00Z"), to: at("2027-01-31T18:15:00Z") });
  });
});

describe("budgetRefusal", () => {
  const windows = budgetWindows(at("2026-12-06T23:30:00Z"), "Europe/Paris");

  it("refuses once a limit is reached (0 allows nothing) and names when it resets in the person's zone", () => {
    const budget = { tokensPerDay: 1000, usdPerMonth: null };
    expect(budgetRefusal(budget, spent(999, 0), windows)).toBeNull();
    const refusal = budgetRefusal(budget, spent(1000, 0), windows);
    expect(refusal?.resetsAt).toEqual(at("2026-12-07T23:00:00Z"));
    expect(refusal?.message).toBe(
      "Your daily budget of 1,000 tokens is used up (1,000 tokens today). It resets at 00:00 on 8 Dec (Europe/Paris).",
    );
    expect(budgetRefusal({ tokensPerDay: 0, usdPerMonth: null }, spent(0, 0), windows)).not.toBeNull();
  });

  it("names the monthly reset when the month's dollars are used up, also when the day's tokens are", () => {
    const budget = { tokensPerDay: 10, usdPerMonth: 5 };
    expect(budgetRefusal(budget, spent(0, 4.99), windows)).toBeNull();
    const both = budgetRefusal(budget, spent(10, 5.123), windows);
    expect(both?.message).toBe(
      "Your monthly budget of $5.00 is used up ($5.12 this month). It resets at 00:00 on 1 Jan (Europe/Paris).",
    );
  });

  it("has nothing to refuse without limits", () => {
    expect(budgetRefusal({ tokensPerDay: null, usdPerMonth: null }, spent(1e12, 1e9), windows)).toBeNull();
  });

  it("writes a reset in the zone's own hours", () => {
    expect(resetWords(at("2026-12-07T10:15:00Z"), "Pacific/Chatham")).toBe("00:00 on 8 Dec (Pacific/Chatham)");
  });
});
