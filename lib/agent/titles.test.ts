import { describe, expect, it } from "vitest";
import { cleanTitle, RULE_TITLE_MAX_CHARS, ruleTitle, TITLE_MAX_CHARS, titlePrompt } from "./titles";

describe("ruleTitle", () => {
  it("makes the first message a short phrase a person reads, not a salad of key words", () => {
    expect(ruleTitle("add tasks: pack boxes; book a van")).toBe("Add tasks: pack boxes, book a van");
    expect(ruleTitle("write 200 words about rivers")).toBe("Write 200 words about rivers");
    expect(ruleTitle("what time is it?")).toBe("What time is it");
    expect(ruleTitle("hi! please could you explain how the tides of the North Sea work and why they differ")).toBe(
      "Explain how the tides of the North Sea…",
    );
    expect(ruleTitle("iPhone vs USB-C")).toBe("iPhone vs USB-C");
  });

  it("cuts at a word, never leaves the phrase dangling, and keeps to 40 characters", () => {
    const title = ruleTitle("add tasks: pack the boxes; book a van; call the landlord about the keys")!;
    expect(title).toBe("Add tasks: pack the boxes, book a van…");
    expect(title.length).toBeLessThanOrEqual(RULE_TITLE_MAX_CHARS);
    expect(ruleTitle("x".repeat(100))).toBe(`X${"x".repeat(RULE_TITLE_MAX_CHARS - 2)}…`);
  });

  it("takes the first line without markup or tags, a greeting alone as it is, and is null when no word is left", () => {
    expect(ruleTitle("**Plan** a <b>blog</b> post\nwith three parts")).toBe("Plan a blog post");
    expect(ruleTitle("hello!")).toBe("Hello");
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
