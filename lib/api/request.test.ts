import { describe, expect, it } from "vitest";
import { jsonDepth, readBody, readJson } from "./request.ts";

describe("jsonDepth", () => {
  it("counts nesting of arrays and objects, not brackets inside strings", () => {
    expect(jsonDepth('{"a":1}')).toBe(1);
    expect(jsonDepth('{"a":[{"b":[]}],"c":{}}')).toBe(4);
    expect(jsonDepth('{"a":"[[[[{{{{\\"[[["}')).toBe(1);
    expect(jsonDepth('"\\\\"')).toBe(0);
    expect(jsonDepth("[".repeat(1_000_000), 100)).toBe(101);
  });
});

describe("readBody", () => {
  const post = (body: Uint8Array, type = "application/json") =>
    new Request("http://x/", { method: "POST", headers: { "content-type": type }, body: new Blob([body as Uint8Array<ArrayBuffer>]) });

  it("reads UTF-8 and refuses other charsets and invalid bytes", async () => {
    await expect(readBody(post(new TextEncoder().encode('"café"'), "application/json; charset=utf-8"))).resolves.toBe('"café"');
    await expect(readBody(post(Uint8Array.of(0x22, 0x63, 0xe9, 0x22), "application/json; charset=latin1"))).rejects.toMatchObject({
      status: 415,
      message: expect.stringMatching(/charset=latin1/),
    });
    await expect(readBody(post(Uint8Array.of(0x22, 0x63, 0xe9, 0x22)))).rejects.toMatchObject({ status: 400, message: expect.stringMatching(/UTF-8/) });
  });
});

describe("readJson", () => {
  const post = (text: string) => new Request("http://x/", { method: "POST", headers: { "content-type": "application/json" }, body: text });

  it("reads a lone surrogate in any string or key as U+FFFD, and keeps pairs and an escaped backslash as they are", async () => {
    await expect(readJson(post('{"text":"cut \\ud83d here","\\udc00":["\\ud800x"],"pair":"\\ud83d\\ude00"}'))).resolves.toEqual({
      text: "cut \ufffd here",
      "\ufffd": ["\ufffdx"],
      pair: "\u{1f600}",
    });
    await expect(readJson(post('{"path":"C:\\\\ud800"}'))).resolves.toEqual({ path: "C:\\ud800" });
  });
});
