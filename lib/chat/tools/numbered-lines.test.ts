import { describe, expect, it } from "vitest";
import { numberedLines, splitLines } from "./numbered-lines.ts";
import { TOOL_RESULT_MAX_CHARS } from "../../agent/tool-result.ts";

describe("numberedLines", () => {
  const lines = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`);

  it("numbers the window and says where to go on", () => {
    const window = numberedLines(lines, 3, 2);
    expect(window.text).toBe(
      "lines 3–4:\n     3\tline 3\n     4\tline 4\n(Lines 5–50 not shown: continue with offset 5.)",
    );
    expect([window.first, window.last, window.total]).toEqual([3, 4, 50]);
  });

  it("ends without a note at the last line, and says when the offset is past it", () => {
    expect(numberedLines(lines, 49, 10).text).not.toContain("not shown");
    expect(numberedLines(lines, 51).text).toBe("offset 51 is past the last line (50).");
  });

  it("stops at the result budget however many lines were asked for, and cuts a huge line", () => {
    const wide = Array.from({ length: 1_000 }, () => "x".repeat(900));
    const window = numberedLines(wide, 1, 1_000);
    expect(window.text.length).toBeLessThan(TOOL_RESULT_MAX_CHARS);
    expect(window.last).toBeLessThan(20);
    expect(window.text).toContain(`continue with offset ${window.last + 1}`);
    expect(numberedLines(["y".repeat(5_000)]).text).toContain("(line cut: 5000 characters)");
  });

  it("splits on every newline convention", () => {
    expect(splitLines("a\r\nb\rc\nd")).toEqual(["a", "b", "c", "d"]);
  });

  it("reads a file that ends with a newline as its lines, with no empty line after the last", () => {
    const window = numberedLines(splitLines("# Guide\n\nAlways wear a helmet.\n"));
    expect(window.text).toBe("lines 1–3:\n     1\t# Guide\n     2\t\n     3\tAlways wear a helmet.");
    expect(window.total).toBe(3);
  });
});
