import { describe, expect, it } from "vitest";
import {
  knowledgePathProblem,
  memoryEntryProblem,
  normalizeMemoryEntry,
  SKILL_NAME_PATTERN,
  slugFromName,
} from "./workspace-text.ts";

describe("slugFromName", () => {
  it("makes a kebab-case id from the name a person gives", () => {
    expect(slugFromName("Packing List")).toBe("packing-list");
    expect(slugFromName("  Café Notes!  ")).toBe("cafe-notes");
    expect(slugFromName("Q3 report — draft #2")).toBe("q3-report-draft-2");
    expect(slugFromName("weekly-report")).toBe("weekly-report");
    expect(slugFromName("Ünïcödé & ÆSIR")).toBe("unicode-sir");
    expect(slugFromName("日本語")).toBe("");
    expect(slugFromName("---")).toBe("");
    const long = slugFromName("word ".repeat(40));
    expect(long.length).toBeLessThanOrEqual(64);
    expect(long).toMatch(SKILL_NAME_PATTERN);
    expect(slugFromName("a".repeat(100))).toBe("a".repeat(64));
    for (const name of ["Packing List", "x__y", "A-B-", "-a b-", "1 2 3"])
      expect(slugFromName(name)).toMatch(SKILL_NAME_PATTERN);
  });
});

describe("knowledgePathProblem", () => {
  it("accepts relative paths with folders", () => {
    for (const p of ["KNOWLEDGE.md", "notes/api.md", "data/2026 figures.csv", "ünïcode/файл.txt", "a..b/c.md"])
      expect(knowledgePathProblem(p)).toBeNull();
  });
  it("names what is wrong with traversal, absolute paths, NUL, backslashes and empty folders", () => {
    expect(knowledgePathProblem("../secret")).toMatch(/\.\./);
    expect(knowledgePathProblem("notes/../../x")).toMatch(/\.\./);
    expect(knowledgePathProblem("/etc/passwd")).toMatch(/relative/);
    expect(knowledgePathProblem("C:/x.md")).toMatch(/relative/);
    expect(knowledgePathProblem("a\u0000b")).toMatch(/NUL/);
    expect(knowledgePathProblem("a\\b")).toMatch(/backslash/);
    expect(knowledgePathProblem("a//b")).toMatch(/empty/);
    expect(knowledgePathProblem("a/./b")).toMatch(/empty/);
    expect(knowledgePathProblem("notes/")).toMatch(/end with/);
    expect(knowledgePathProblem("")).toMatch(/empty/);
    expect(knowledgePathProblem("x".repeat(256))).toMatch(/255/);
    expect(knowledgePathProblem("a\nb")).toMatch(/control/);
  });
  it("refuses bidi overrides and other invisible format characters, but not an emoji's zero-width joiner", () => {
    for (const p of [
      "invoice\u202Efdp.md",
      "a\u2066b",
      "x\u200Fy",
      "zero\u200Bwidth",
      "bom\uFEFF",
      "soft\u00ADhyphen",
      "lone\ud800",
    ]) {
      expect(knowledgePathProblem(p)).toMatch(/invisible/);
    }
    expect(knowledgePathProblem("team-👩‍💻.md")).toBeNull();
  });
});

describe("memory entries", () => {
  it("compare after normalising case and spaces", () => {
    expect(normalizeMemoryEntry("  Prefers   METRIC\tunits ")).toBe(normalizeMemoryEntry("prefers metric units"));
    expect(normalizeMemoryEntry("Prefers metric units")).not.toBe(normalizeMemoryEntry("Prefers imperial units"));
  });
  it("are one non-empty line within the limit", () => {
    expect(memoryEntryProblem("ok", 10)).toBeNull();
    expect(memoryEntryProblem("  ", 10)).toMatch(/empty/);
    expect(memoryEntryProblem("a\nb", 10)).toMatch(/one line/);
    expect(memoryEntryProblem("x".repeat(11), 10)).toMatch(/over the limit of 10/);
  });
});
