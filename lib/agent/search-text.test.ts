import { describe, expect, it } from "vitest";
import { searchWords, snippetAround, textOfParts } from "./search-text.ts";

describe("search text", () => {
  it("takes letters and digits, lower-cased, without repeats, at most eight words", () => {
    expect(searchWords("  Rivers, RIVERS & deltas-2026 «Über» ")).toEqual(["rivers", "deltas", "2026", "über"]);
    expect(searchWords("\"* OR NEAR( ")).toEqual(["or", "near"]);
    expect(searchWords("a b c d e f g h i j")).toHaveLength(8);
    expect(searchWords("!!!")).toEqual([]);
  });

  it("reads the text parts of stored parts defensively", () => {
    expect(textOfParts([{ type: "text", text: "a" }, { type: "step-start" }, { type: "text", text: "b" }, null, "x"])).toBe("a b");
    expect(textOfParts("nope")).toBe("");
  });

  it("cuts a snippet around the first word found", () => {
    const text = `${"lorem ipsum ".repeat(30)}the delta widens here ${"dolor sit ".repeat(30)}`;
    const snippet = snippetAround(text, ["delta"], 60);
    expect(snippet).toMatch(/^….*the delta widens here.*…$/);
    expect(snippet.length).toBeLessThanOrEqual(62);
    expect(snippetAround("short text", ["x"])).toBe("short text");
  });
});
