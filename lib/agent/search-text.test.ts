import { describe, expect, it } from "vitest";
import {
  holdsEveryWord,
  isUnspacedWord,
  searchWords,
  snippetAround,
  splitUnspacedRuns,
  textOfParts,
} from "./search-text.ts";

describe("search text", () => {
  it("takes letters and digits, lower-cased, without repeats, at most eight words", () => {
    expect(searchWords("  Rivers, RIVERS & deltas-2026 «Über» ")).toEqual(["rivers", "deltas", "2026", "über"]);
    expect(searchWords('"* OR NEAR( ')).toEqual(["or", "near"]);
    expect(searchWords("a b c d e f g h i j")).toHaveLength(8);
    expect(searchWords("!!!")).toEqual([]);
  });

  it("reads the text parts of stored parts defensively", () => {
    expect(
      textOfParts([{ type: "text", text: "a" }, { type: "step-start" }, { type: "text", text: "b" }, null, "x"]),
    ).toBe("a b");
    expect(textOfParts("nope")).toBe("");
  });

  it("gives a person's text alone: files and hints before or between its text parts add no blank lines", () => {
    const file = { type: "file", mediaType: "image/png", url: "data:image/png;base64,AA==" };
    expect(textOfParts([file, file, file, { type: "text", text: "What do these say?" }], "\n\n")).toBe(
      "What do these say?",
    );
    const parts = [{ type: "text", text: "one" }, { type: "data-hint", data: {} }, file, { type: "text", text: "two" }];
    expect(textOfParts(parts, "\n\n")).toBe("one\n\ntwo");
    // The text's own line breaks are the person's, and kept.
    expect(textOfParts([file, { type: "text", text: "\n\nindented" }], "\n\n")).toBe("\n\nindented");
  });

  it("cuts a snippet around the first word found", () => {
    const text = `${"lorem ipsum ".repeat(30)}the delta widens here ${"dolor sit ".repeat(30)}`;
    const snippet = snippetAround(text, ["delta"], 60);
    expect(snippet).toMatch(/^….*the delta widens here.*…$/);
    expect(snippet.length).toBeLessThanOrEqual(62);
    expect(snippetAround("short text", ["x"])).toBe("short text");
  });
});

describe("text without spaces between words (Chinese, Japanese, …)", () => {
  it("tells unspaced words apart and splits their runs from the letters around them", () => {
    expect(["北京", "タワー", "서울에서", "ภาษา", "delta", "café", "42"].map(isUnspacedWord)).toEqual([
      true,
      true,
      true,
      true,
      false,
      false,
      false,
    ]);
    expect(splitUnspacedRuns(searchWords("iPhone手机 北京 東京タワー delta 北京"))).toEqual([
      "iphone",
      "手机",
      "北京",
      "東京タワー",
      "delta",
    ]);
  });

  it("holds every word as a substring, compared as a query is", () => {
    expect(holdsEveryWord("我们明天去北京旅游，Then ＫＹＯＴＯ.", ["北京", "旅游", "kyoto"])).toBe(true);
    expect(holdsEveryWord("我们明天去北京旅游", ["北京", "上海"])).toBe(false);
  });
});
