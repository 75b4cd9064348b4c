import { describe, expect, it } from "vitest";
import { groupByDate, groupForList } from "./date-groups";

// Local times, so that the test holds in any time zone (TZ is the browser's in the app).
const local = (y: number, m: number, d: number, h = 12, min = 0) => new Date(y, m - 1, d, h, min).toISOString();
const labels = (items: { id: string; updatedAt: string }[], now: Date) =>
  groupByDate(items, now).map((g) => `${g.label}: ${g.items.map((i) => i.id).join(",")}`);

describe("groupByDate", () => {
  const now = new Date(2026, 11, 1, 9, 30); // 1 December 2026, 09:30 local

  it("puts each conversation in Today, Yesterday, Previous 7 days, Previous 30 days or its month, newest first", () => {
    const items = [
      { id: "a", updatedAt: local(2026, 12, 1, 9, 0) },
      { id: "b", updatedAt: local(2026, 12, 1, 0, 0) },
      { id: "c", updatedAt: local(2026, 11, 30, 23, 59) },
      { id: "d", updatedAt: local(2026, 11, 30, 0, 0) },
      { id: "e", updatedAt: local(2026, 11, 29, 23, 0) },
      { id: "f", updatedAt: local(2026, 11, 24, 0, 0) },
      { id: "g", updatedAt: local(2026, 11, 23, 23, 0) },
      { id: "h", updatedAt: local(2026, 11, 1, 0, 0) },
      { id: "i", updatedAt: local(2026, 10, 31, 23, 0) },
      { id: "j", updatedAt: local(2026, 10, 2) },
      { id: "k", updatedAt: local(2025, 10, 15) },
    ];
    expect(labels(items, now)).toEqual([
      "Today: a,b",
      "Yesterday: c,d",
      "Previous 7 days: e,f",
      "Previous 30 days: g,h",
      "October 2026: i,j",
      "October 2025: k",
    ]);
  });

  it("counts a time after now (another clock) or an unreadable one as today, and gives no empty groups", () => {
    expect(
      labels(
        [
          { id: "x", updatedAt: local(2026, 12, 2) },
          { id: "y", updatedAt: "not a date" },
        ],
        now,
      ),
    ).toEqual(["Today: x,y"]);
    expect(groupByDate([], now)).toEqual([]);
  });

  it("follows the calendar across a month and a year boundary", () => {
    const newYear = new Date(2027, 0, 1, 0, 5);
    expect(
      labels(
        [
          { id: "n", updatedAt: local(2026, 12, 31, 23, 50) },
          { id: "o", updatedAt: local(2026, 12, 5, 8) },
          { id: "p", updatedAt: local(2026, 12, 1, 8) },
        ],
        newYear,
      ),
    ).toEqual(["Yesterday: n", "Previous 30 days: o", "December 2026: p"]);
  });
});

describe("groupForList", () => {
  const now = new Date(2026, 11, 1, 9, 30);
  const sections = (items: { id: string; updatedAt: string; pinned?: unknown }[]) =>
    groupForList(items, now).map((g) => `${g.label}: ${g.items.map((i) => i.id).join(",")}`);

  it("puts the pinned conversations first, in the list's order, whatever their date, and dates the rest", () => {
    expect(
      sections([
        { id: "p1", updatedAt: local(2025, 1, 3), pinned: true },
        { id: "a", updatedAt: local(2026, 12, 1, 9, 0), pinned: false },
        { id: "p2", updatedAt: local(2026, 12, 1, 8, 0), pinned: true },
        { id: "b", updatedAt: local(2026, 11, 30), pinned: false },
      ]),
    ).toEqual(["Pinned: p1,p2", "Today: a", "Yesterday: b"]);
  });

  it("has no Pinned section when nothing is pinned, and reads anything but true as not pinned", () => {
    expect(
      sections([
        { id: "a", updatedAt: local(2026, 12, 1), pinned: "true" },
        { id: "b", updatedAt: local(2026, 12, 1), pinned: 1 },
        { id: "c", updatedAt: local(2026, 12, 1) },
      ]),
    ).toEqual(["Today: a,b,c"]);
    expect(groupForList([], now)).toEqual([]);
    expect(sections([{ id: "p", updatedAt: "not a date", pinned: true }])).toEqual(["Pinned: p"]);
  });
});
