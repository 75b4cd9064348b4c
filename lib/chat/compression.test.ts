import { describe, expect, it } from "vitest";
import { summaryModelMessages } from "./compression.ts";

describe("summaryModelMessages", () => {
  it("gives the same message object for the same summary, so its conversion is found again", () => {
    const state = { summary: "## Goal\nMove house.", keptFromId: "m9", summarizedCount: 8 };
    const [first] = summaryModelMessages(state);
    expect(first).toMatchObject({ role: "user" });
    expect(String(first!.content)).toContain("Move house.");
    expect(summaryModelMessages({ ...state })[0]).toBe(first);
    expect(summaryModelMessages({ ...state, summary: "## Goal\nStay." })[0]).not.toBe(first);
    expect(summaryModelMessages(undefined)).toEqual([]);
  });
});
