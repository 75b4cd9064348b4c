import { describe, expect, it } from "vitest";
import { safeEqual, safeNextPath, sessionValue } from "./auth.ts";

describe("auth helpers", () => {
  it("compares secrets without shortcuts", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });

  it("derives a session value that is not the token and depends on it", async () => {
    const a = await sessionValue("token-a");
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(a).not.toContain("token-a");
    expect(await sessionValue("token-a")).toBe(a);
    expect(await sessionValue("token-b")).not.toBe(a);
  });

  it("only follows same-site paths after sign-in", () => {
    expect(safeNextPath("/c/abc")).toBe("/c/abc");
    expect(safeNextPath("//evil.example")).toBe("/");
    expect(safeNextPath("https://evil.example")).toBe("/");
    expect(safeNextPath("/\\evil.example")).toBe("/");
    expect(safeNextPath(null)).toBe("/");
  });
});
