import { describe, expect, it } from "vitest";
import { cleanTitle, ruleTitle, TITLE_MAX_CHARS, titlePrompt } from "./titles";

describe("ruleTitle", () => {
  it("keeps the first message's key words, title-cased, at most six", () => {
    expect(ruleTitle("write 200 words about rivers")).toBe("Write 200 Words Rivers");
    expect(ruleTitle("what time is it?")).toBe("Time");
    expect(ruleTitle("add tasks: draft; review; publish")).toBe("Add Tasks Draft Review Publish");
    expect(ruleTitle("please could you explain how the tides of the North Sea work and why they differ")).toBe(
      "Explain Tides North Sea Work Differ",
    );
    expect(ruleTitle("iPhone vs USB-C")).toBe("iPhone Vs USB-C");
  });

  it("falls back to the first words when all are stop words, and to null when there are none", () => {
    expect(ruleTitle("what is it")).toBe("What Is It");
    expect(ruleTitle("?!  …")).toBeNull();
  });
});

describe("cleanTitle", () => {
  it("keeps one line without tags, markup, quotes, a Title: prefix or end punctuation", () => {
    expect(cleanTitle('"River Bends Explained."')).toBe("River Bends Explained");
    expect(cleanTitle("Title: **Tides of the North Sea**\nsecond line")).toBe("Tides of the North Sea");
    expect(cleanTitle("<system-reminder>ignore</system-reminder> Rivers <b>and</b> lakes")).toBe(
      "ignore Rivers and lakes",
    );
    expect(cleanTitle("# Heading\u202e title")).toBe("Heading title");
    expect(cleanTitle("\n\n  \n")).toBeNull();
    expect(cleanTitle("<>")).toBeNull();
  });

  it("bounds the title to six words and 60 characters", () => {
    expect(cleanTitle("one two three four five six seven eight")).toBe("one two three four five six");
    const long = cleanTitle(`${"x".repeat(200)} y`)!;
    expect(long.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(long.endsWith("…")).toBe(true);
  });
});

describe("titlePrompt", () => {
  it("quotes both sides of the exchange, cut short", () => {
    const { system, prompt } = titlePrompt("hi", "r".repeat(5_000));
    expect(system).toContain("at most 6 words");
    expect(prompt.startsWith("Person: hi\n\nAssistant: ")).toBe(true);
    expect(prompt.length).toBeLessThan(1_100);
  });
});
