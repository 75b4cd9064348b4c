import { describe, expect, it } from "vitest";
import {
  holdsEveryWord,
  isUnspacedWord,
  matchSnippet,
  plainText,
  searchableText,
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

describe("what search reads and shows", () => {
  const textFile = {
    type: "file",
    mediaType: "text/plain",
    filename: "list.txt",
    url: "data:text/plain;base64,AA==",
    providerMetadata: { hintline: { text: "Tent\nquokka food" } },
  };
  const pdf = {
    type: "file",
    mediaType: "application/pdf",
    filename: "guide.pdf",
    url: "data:application/pdf;base64,AA==",
    providerMetadata: { hintline: { pages: ["Welcome", "The marula tree"] } },
  };

  it("reads the message's text and each attachment's stored text under its name", () => {
    expect(searchableText([textFile, pdf, { type: "text", text: "Packing" }])).toBe(
      "Packing\n\nlist.txt: Tent\nquokka food\n\nguide.pdf: Welcome\n\nThe marula tree",
    );
    // An image, a file with no stored text, forged shapes: nothing.
    const image = { type: "file", mediaType: "image/png", url: "data:image/png;base64,AA==" };
    const odd = { type: "file", providerMetadata: { hintline: { text: 42, pages: "x" } } };
    expect(searchableText([image, odd, { type: "text", text: "hi" }])).toBe("hi");
  });

  it("takes markdown's marks out: headings, emphasis, code, links and images as their text, lists, quotes", () => {
    expect(plainText("## Walrus facts\n\n- **Tusks** grow `long` — see [the page](https://x.y/w)")).toBe(
      "Walrus facts\n\nTusks grow long — see the page",
    );
    expect(plainText("![a walrus](w.png) and <https://x.y> and ~~old~~ __new__ *soft* _also_")).toBe(
      "a walrus and https://x.y and old new soft also",
    );
    const flat = (text: string) => plainText(text).replace(/\s+/g, " ").trim();
    expect(flat("> quoted\n1. first\n* [x] done\n```ts\nconst a = 1;\n```\n---\n| a | b |\n|---|:-:|\n$$x^2$$")).toBe(
      "quoted first done const a = 1; a b x^2",
    );
    // What is not markdown stays: snake_case, a lone asterisk, 2 * 3, a # inside a line.
    expect(plainText("snake_case_name costs 2 * 3, issue #4")).toBe("snake_case_name costs 2 * 3, issue #4");
  });

  it("gives a snippet in plain text around the first word found, in the text or an attachment", () => {
    const reply = {
      type: "text",
      text: "## Walrus facts\n\n- **Tusks** grow `long` — see [the walrus page](https://x.y)",
    };
    expect(matchSnippet([reply], ["tusks"])).toBe("Walrus facts Tusks grow long — see the walrus page");
    const fenced = `${reply.text} and ![a walrus](https://x.y/w.png) at length\n\n\`\`\`js\nconst x = 1;\n\`\`\``;
    expect(matchSnippet([{ type: "text", text: fenced }], ["tusks"])).toBe(
      "Walrus facts Tusks grow long — see the walrus page and a walrus at length const x = 1;",
    );
    expect(matchSnippet([{ type: "text", text: "Packing" }, textFile], ["quokka"])).toBe(
      "Packing list.txt: Tent quokka food",
    );
    const long = `${"**word** ".repeat(300)}the [delta](https://x.y) widens ${"more ".repeat(300)}`;
    const snippet = matchSnippet([{ type: "text", text: long }], ["delta"]);
    expect(snippet).toMatch(/^….*word the delta widens more.*…$/);
    expect(snippet).not.toMatch(/[*[\]()]/);
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
