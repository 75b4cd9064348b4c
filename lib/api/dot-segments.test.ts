import { describe, expect, it } from "vitest";
import { apiPathHasDotSegment } from "./dot-segments.ts";

describe("apiPathHasDotSegment", () => {
  it("finds plain and percent-encoded dot segments in API paths", () => {
    for (const target of ["/api/w/knowledge/a/%2e%2e/b.md", "/api/x/%2E%2E", "/api/x/.%2e/y", "/api/x/%2e/y", "/api/x/../y", "/api/x/./y", "/api/x/..?q=1"]) {
      expect(apiPathHasDotSegment(target)).toBe(true);
    }
  });
  it("leaves other paths alone", () => {
    for (const target of ["/api/w/knowledge/a..b.md", "/api/x/.hidden", "/api/x/%2e%2e%2e", "/c/%2e%2e/x", "/api/x?q=/../", "/apix/..", "/api/a%2f%2e%2e%2fb", "/api/conversations/%2E%2E%2Fseed"]) {
      expect(apiPathHasDotSegment(target)).toBe(false);
    }
  });
});
