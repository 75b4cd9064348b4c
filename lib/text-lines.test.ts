import { describe, expect, it } from "vitest";
import { lineCount, splitLines } from "./text-lines.ts";

describe("lines of a text", () => {
  it("splits on every newline convention", () => {
    expect(splitLines("a\r\nb\rc\nd")).toEqual(["a", "b", "c", "d"]);
  });

  it("counts a newline that ends the text as the end of its last line, not as one more line", () => {
    expect(splitLines("# Guide\nAlways wear a helmet.\n")).toEqual(["# Guide", "Always wear a helmet."]);
    expect(splitLines("a\r\n")).toEqual(["a"]);
    expect(lineCount("a,b\n1,2\n3,4\n")).toBe(3);
    expect(lineCount("a,b\n1,2\n3,4")).toBe(3);
  });

  it("keeps blank lines that end the text beyond its last newline", () => {
    expect(splitLines("a\n\n")).toEqual(["a", ""]);
    expect(lineCount("a\n\n\n")).toBe(3);
    expect(lineCount("\n")).toBe(1);
  });

  it("gives no line for an empty text", () => {
    expect(splitLines("")).toEqual([]);
    expect(lineCount("")).toBe(0);
  });
});
