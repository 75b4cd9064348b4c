import { describe, expect, it } from "vitest";
import { codeLanguage } from "./code-language";

describe("codeLanguage", () => {
  it("maps a fence's language and its aliases to a grammar and a readable label", () => {
    expect(codeLanguage("language-ts")).toEqual({ grammar: "typescript", label: "TypeScript" });
    expect(codeLanguage("language-typescript")).toEqual({ grammar: "typescript", label: "TypeScript" });
    expect(codeLanguage("language-tsx")).toEqual({ grammar: "typescript", label: "TSX" });
    expect(codeLanguage("language-py")).toEqual({ grammar: "python", label: "Python" });
    expect(codeLanguage("language-sh")).toEqual({ grammar: "bash", label: "Shell" });
    expect(codeLanguage("language-html")).toEqual({ grammar: "xml", label: "HTML" });
    expect(codeLanguage("language-C++")).toEqual({ grammar: "cpp", label: "C++" });
    expect(codeLanguage("hljs language-JSON other")).toEqual({ grammar: "json", label: "JSON" });
  });

  it("treats no language, text and unknown languages as plain text (unknown ones keep their name as the label)", () => {
    expect(codeLanguage(undefined)).toEqual({ grammar: null, label: "Text" });
    expect(codeLanguage("")).toEqual({ grammar: null, label: "Text" });
    expect(codeLanguage("language-text")).toEqual({ grammar: null, label: "Text" });
    expect(codeLanguage("language-brainfuck")).toEqual({ grammar: null, label: "brainfuck" });
    expect(codeLanguage("not-a-language-ts")).toEqual({ grammar: null, label: "Text" });
  });
});
