import { describe, expect, it } from "vitest";
import { checkPdfFile, knowledgePathFor, knowledgeUrl, readTextFile } from "./text-file";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("readTextFile", () => {
  it("reads UTF-8 text, markdown, CSV and JSON as they are", () => {
    expect(readTextFile("notes.md", bytes("# Notes\nÉté — ok ✓\n"))).toEqual({
      ok: true,
      text: "# Notes\nÉté — ok ✓\n",
    });
    expect(readTextFile("data.csv", bytes("a,b\n1,2\n"))).toEqual({ ok: true, text: "a,b\n1,2\n" });
    expect(readTextFile("Makefile", bytes("all:\n\techo hi\n"))).toEqual({ ok: true, text: "all:\n\techo hi\n" });
  });

  it("sends a PDF as it is (the server keeps its text), refusing one too large or not a PDF", () => {
    expect(checkPdfFile("report.PDF", bytes("%PDF-1.7"))).toEqual({ ok: true });
    expect(checkPdfFile("fake.pdf", bytes("hello"))).toEqual({
      ok: false,
      error: "“fake.pdf” is named .pdf but is not a PDF file.",
    });
    expect(checkPdfFile("huge.pdf", new Uint8Array(8 * 1024 * 1024 + 1))).toEqual({
      ok: false,
      error: "“huge.pdf” is 8.00 MiB: a PDF knowledge file may be at most 8 MiB.",
    });
  });

  it("refuses images, binary and non-UTF-8 files in words that name the file", () => {
    expect(readTextFile("photo.jpg", bytes("x"))).toEqual({
      ok: false,
      error: "“photo.jpg” is an image: only text files can be knowledge files.",
    });
    expect(readTextFile("blob.dat", new Uint8Array([65, 0, 66]))).toEqual({
      ok: false,
      error: "“blob.dat” holds NUL bytes: it is a binary file, not text.",
    });
    expect(readTextFile("latin1.txt", new Uint8Array([0x63, 0x61, 0x66, 0xe9]))).toEqual({
      ok: false,
      error: "“latin1.txt” is not UTF-8 text: save it as UTF-8 (or it is a binary file).",
    });
    expect(readTextFile("big.txt", new Uint8Array(1024 * 1024 + 1).fill(97))).toEqual({
      ok: false,
      error: "“big.txt” is 1.00 MiB: a knowledge file may hold at most 1 MiB of text.",
    });
  });

  it("stores a file under its own name and encodes each part of the URL", () => {
    expect(knowledgePathFor("C:\\docs\\api notes.md")).toBe("api notes.md");
    expect(knowledgePathFor("..")).toBe("file.txt");
    expect(knowledgeUrl("ws_1", "notes/api notes#1.md")).toBe(
      "/api/workspaces/ws_1/knowledge/notes/api%20notes%231.md",
    );
  });
});
