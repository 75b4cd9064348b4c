import { describe, expect, it } from "vitest";
import { exportFileName, highlightPieces, matchCountText } from "./search-text";

const marked = (text: string, query: string) =>
  highlightPieces(text, query)
    .map((p) => (p.mark ? `[${p.text}]` : p.text))
    .join("");

describe("highlightPieces", () => {
  it("marks each query word where a word of the text starts with it, to the end of that word, in any case", () => {
    expect(marked("The Rivers of Lisbon and a river view", "river lis")).toBe(
      "The [Rivers] of [Lisbon] and a [river] view",
    );
    expect(marked("unrivalled", "river")).toBe("unrivalled");
    expect(marked("…ends here", "ends")).toBe("…[ends] here");
  });

  it("marks every word anywhere, only the match, when the query holds Chinese or Japanese (searched as substrings)", () => {
    expect(marked("我们明天去北京abc旅游 and Beijing", "北京 abc beij")).toBe(
      "我们明天去[北京][abc]旅游 and [Beij]ing",
    );
    expect(marked("東京タワーに行きました", "タワー")).toBe("東京[タワー]に行きました");
  });

  it("gives the text unmarked when the query has no words, and nothing for no text", () => {
    expect(highlightPieces("plain", "  !! ")).toEqual([{ text: "plain", mark: false }]);
    expect(highlightPieces("", "x")).toEqual([]);
  });
});

describe("exportFileName", () => {
  it("names the file after the title and the day, in plain letters", () => {
    expect(exportFileName("Trip to Lisbon — café plans!", new Date(2026, 11, 1, 10))).toBe(
      "hintline-trip-to-lisbon-cafe-plans-2026-12-01.json",
    );
    expect(exportFileName("???", new Date(2027, 0, 9))).toBe("hintline-conversation-2027-01-09.json");
    expect(exportFileName("a".repeat(80), new Date(2027, 0, 9))).toBe(`hintline-${"a".repeat(48)}-2027-01-09.json`);
  });
});

describe("matchCountText", () => {
  it("says one conversation, or several, in agreement", () => {
    expect([1, 2, 50, 1200].map(matchCountText)).toEqual([
      "1 conversation matches.",
      "2 conversations match.",
      "50 conversations match.",
      "1,200 conversations match.",
    ]);
  });
});
