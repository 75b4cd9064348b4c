import { describe, expect, it } from "vitest";
import { compressionPrompt, SUMMARY_SECTIONS, shouldCompress, splitForCompression, truncationSummary } from "./compression.ts";

describe("compression rules", () => {
  it("fires at the trigger, inclusive", () => {
    expect(shouldCompress(799, 0.8, 1000)).toBe(false);
    expect(shouldCompress(800, 0.8, 1000)).toBe(true);
  });

  it("keeps the newest whole messages that fit the reserve, always at least the newest", () => {
    const sizes = [50, 40, 30, 20, 10];
    expect(splitForCompression(sizes, (n) => n, 35)).toMatchObject({ summarize: [50, 40, 30], keep: [20, 10], keptTokens: 30 });
    expect(splitForCompression(sizes, (n) => n, 5)).toMatchObject({ summarize: [50, 40, 30, 20], keep: [10] });
    expect(splitForCompression(sizes, (n) => n, 1000)).toMatchObject({ summarize: [], keep: sizes });
  });

  it("never separates a tool call from its result (an assistant message holds both)", () => {
    const messages = [
      { id: "u1", tokens: 30 },
      { id: "a1-with-tool-call-and-result", tokens: 60 },
      { id: "u2", tokens: 10 },
    ];
    const { keep } = splitForCompression(messages, (m) => m.tokens, 50);
    expect(keep.map((m) => m.id)).toEqual(["u2"]);
  });

  it("asks for the five sections with the current time filled in, and carries the previous summary", () => {
    const prompt = compressionPrompt({
      previousSummary: "## Task Overview\nold",
      messages: [{ role: "user", content: "hi" }],
      now: "2026-07-01T12:00:00 UTC",
    });
    for (const section of SUMMARY_SECTIONS) expect(prompt).toContain(`## ${section}`);
    expect(prompt).toContain("The current time is 2026-07-01T12:00:00 UTC.");
    expect(prompt).not.toContain("{current_time}");
    expect(prompt).toContain("<previous-summary>\n## Task Overview\nold\n</previous-summary>");
    expect(prompt).toContain("User: hi");
  });

  it("has a fixed truncation fallback", () => {
    expect(truncationSummary(12, "now")).toMatch(/^## Task Overview\nEarlier messages were truncated: 12 older messages/);
  });
});
