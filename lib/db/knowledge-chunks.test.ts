import { describe, expect, it } from "vitest";
import { CHUNK_CHARS, knowledgeChunks, matchingLines, PIECE_CHARS } from "./knowledge-chunks.ts";

/** Every line a search over all chunks finds for `words`, as "line: text". */
function found(content: string, words: string[], anyWord = false): string[] {
  return knowledgeChunks(content).flatMap((c) => matchingLines(c, words, anyWord).map((m) => `${m.line}: ${m.text}`));
}

describe("knowledgeChunks", () => {
  it("stores a file of empty lines as no chunk at all, and any 1 MiB file as a bounded number", () => {
    expect(knowledgeChunks("\n".repeat(1024 * 1024))).toEqual([]);
    expect(knowledgeChunks("\r\n \t\r".repeat(100_000))).toEqual([]);
    const csv = Array.from({ length: 39_000 }, (_, i) => `${i},a${i % 7},b`).join("\n");
    expect(knowledgeChunks(csv).length).toBeLessThanOrEqual(Math.ceil(csv.length / (CHUNK_CHARS - 64)));
    const oneLine = "word ".repeat(200_000);
    const pieces = knowledgeChunks(oneLine);
    expect(pieces.length).toBeLessThanOrEqual(Math.ceil(oneLine.length / (PIECE_CHARS / 2)));
    expect(pieces.every((p) => p.firstLine === 1 && p.text.length <= PIECE_CHARS)).toBe(true);
    expect(pieces.map((p) => p.text).join("")).toBe(oneLine);
    expect(pieces.map((p) => p.seq)).toEqual(pieces.map((_, i) => i));
  });

  it("keeps every line's number, across chunks and with \\n, \\r\\n and \\r endings", () => {
    const lines = Array.from({ length: 5_000 }, (_, i) =>
      i % 3 === 0 ? "" : `line ${i + 1} of ${i % 11 === 0 ? "zebra" : "text"}`,
    );
    for (const eol of ["\n", "\r\n", "\r"]) {
      const hits = found(lines.join(eol), ["zebra"]);
      const expected = lines.flatMap((l, i) => (l.includes("zebra") ? [`${i + 1}: ${l}`] : []));
      expect(hits).toEqual(expected);
    }
  });

  it("cuts a long line at a space, never inside a surrogate pair, and finds its words on that line", () => {
    const long = `${"a".repeat(PIECE_CHARS - 1)}😀${"b".repeat(100)}`;
    const pieces = knowledgeChunks(`first\n${long}\nlast zebra`);
    expect(pieces.map((p) => p.firstLine)).toEqual([1, 2, 2, 3]);
    expect(pieces.every((p) => !/[\ud800-\udbff]$/.test(p.text))).toBe(true);
    const spaced = `x\n${"alpha ".repeat(3_000)}zebra tail`;
    expect(found(spaced, ["zebra", "tail"])).toEqual([expect.stringMatching(/^2: /)]);
  });
});

describe("matchingLines", () => {
  const chunk = { firstLine: 10, text: "The Rate limit\nrate only\nCafé au lait\nratelimit\nlimit, rate." };
  it("finds whole words of one line, every word or any, accents and case ignored", () => {
    expect(matchingLines(chunk, ["rate", "limit"], false).map((m) => m.line)).toEqual([10, 14]);
    expect(matchingLines(chunk, ["rate", "limit"], true).map((m) => m.line)).toEqual([10, 11, 14]);
    expect(matchingLines(chunk, ["cafe"], false)).toEqual([{ line: 12, text: "Café au lait" }]);
    expect(matchingLines(chunk, ["café"], false).map((m) => m.line)).toEqual([12]);
  });
});
