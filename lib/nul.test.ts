import { describe, expect, it } from "vitest";
import { nulPath, storable, wellFormed } from "./nul.ts";

describe("NUL", () => {
  it("names the first field holding one", () => {
    expect(nulPath({ a: "ok", b: [{ c: "x\u0000y" }] })).toBe("b.0.c");
    expect(nulPath("a\u0000")).toBe("body");
    expect(nulPath({ "k\u0000": 1 })).toBe("k\\u0000");
    expect(nulPath({ a: ["fine", 1, null, { b: true }] })).toBeNull();
  });
  it("strips it from strings and keys, keeping objects without one as they are", () => {
    const clean = { a: "ok", b: [1, { c: "d" }] };
    expect(storable(clean)).toBe(clean);
    expect(storable({ a: "x\u0000y", b: [{ "c\u0000": "\u0000" }], d: 3 })).toEqual({ a: "xy", b: [{ c: "" }], d: 3 });
    const date = new Date(0);
    expect(storable({ date }).date).toBe(date);
  });
  it("replaces lone surrogates with U+FFFD in strings and keys, keeping pairs and clean objects as they are", () => {
    const clean = { a: "\u{1f600}", b: ["ok"] };
    expect(wellFormed(clean)).toBe(clean);
    expect(wellFormed({ a: "x\ud83d", "\udc00": ["\ud800\u0000"] })).toEqual({
      a: "x\ufffd",
      "\ufffd": ["\ufffd\u0000"],
    });
    expect(storable({ a: "x\ud83d\u0000y" })).toEqual({ a: "x\ufffdy" });
  });
});
