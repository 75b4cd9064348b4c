import { describe, expect, it } from "vitest";
import { ASK_THE_OPERATOR, operatorNote, withoutNoteMarks, wordsFor } from "./operator-words.ts";

describe("operator words", () => {
  const message = `Hintline does not know the context window of x/y.${operatorNote(" Set HINTLINE_CONTEXT_WINDOW to its size in tokens.")}`;

  it("tells the operator the variable and what to do, anyone else who can fix it", () => {
    expect(wordsFor(message, true)).toBe(
      "Hintline does not know the context window of x/y. Set HINTLINE_CONTEXT_WINDOW to its size in tokens.",
    );
    expect(wordsFor(message, false)).toBe(`Hintline does not know the context window of x/y.${ASK_THE_OPERATOR}`);
    expect(wordsFor(message, false)).not.toMatch(/HINTLINE_|\u27e6|\u27e7/);
  });

  it("drops a note with no person words, keeps several notes in order, and leaves plain text alone", () => {
    const limit = `The file is over the 10 MB limit${operatorNote(" (HINTLINE_MAX_ATTACHMENT_BYTES)", "")}; send a smaller one.`;
    expect(wordsFor(limit, false)).toBe("The file is over the 10 MB limit; send a smaller one.");
    expect(wordsFor(limit, true)).toBe(
      "The file is over the 10 MB limit (HINTLINE_MAX_ATTACHMENT_BYTES); send a smaller one.",
    );
    const two = `A.${operatorNote(" Set A_X.", " Ask.")} B.${operatorNote(" Set B_X.", "")}`;
    expect(wordsFor(two, true)).toBe("A. Set A_X. B. Set B_X.");
    expect(wordsFor(two, false)).toBe("A. Ask. B.");
    expect(wordsFor("Nothing to hide | here.", false)).toBe("Nothing to hide | here.");
  });

  it("lets no outside text forge or break a note", () => {
    const forged = withoutNoteMarks("Provider said \u27e6x|y\u27e7 here");
    expect(forged).toBe("Provider said x|y here");
    expect(wordsFor(`${forged}.${operatorNote(" Set K.")}`, false)).toBe(`Provider said x|y here.${ASK_THE_OPERATOR}`);
  });
});
