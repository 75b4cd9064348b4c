import { describe, expect, it } from "vitest";
import { apiPathHasDotSegment, bodyLimit, listenHost, SIGN_IN_BODY_LIMIT } from "./server.mjs";

describe("where the server listens", () => {
  it("listens on loopback when HOST is not set, and on any loopback address it names", () => {
    expect(listenHost({})).toEqual({ host: "127.0.0.1" });
    // A misspelt mode would otherwise be open mode without a word.
    expect(listenHost({ HINTLINE_AUTH: "account" }).error).toMatch(/HINTLINE_AUTH="account" is not a mode/);
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"]) expect(listenHost({ HOST: host })).toEqual({ host });
  });

  it("refuses an address open to the network without a token, unless the operator says so", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "example.test"]) {
      expect(listenHost({ HOST: host }).error).toMatch(/refusing to listen on .* without an access token.*HINTLINE_AUTH_TOKEN.*HINTLINE_ALLOW_OPEN=1/s);
      expect(listenHost({ HOST: host, HINTLINE_AUTH_TOKEN: "t" })).toEqual({ host });
      expect(listenHost({ HOST: host, HINTLINE_AUTH: "accounts" })).toEqual({ host });
      expect(listenHost({ HOST: host, HINTLINE_AUTH: "account" }).error).toBeDefined();
      expect(listenHost({ HOST: host, HINTLINE_ALLOW_OPEN: "1" })).toEqual({ host });
      expect(listenHost({ HOST: host, HINTLINE_ALLOW_OPEN: "yes" }).error).toBeDefined();
    }
  });

  it("lets sign-in and unauthenticated requests send a small body only", () => {
    const token = { HINTLINE_AUTH_TOKEN: "t" };
    expect(bodyLimit("/api/auth/sign-in", {}, {})).toBe(SIGN_IN_BODY_LIMIT);
    expect(bodyLimit("/api/chat", { authorization: "Bearer x" }, token)).toBeGreaterThan(32 * 1024 * 1024);
    expect(bodyLimit("/api/chat", { cookie: "a=1; hintline_session=x" }, token)).toBeGreaterThan(32 * 1024 * 1024);
    expect(bodyLimit("/api/chat", {}, token)).toBe(SIGN_IN_BODY_LIMIT);
    expect(bodyLimit("/api/chat", {}, {})).toBeGreaterThan(32 * 1024 * 1024);
    const accounts = { HINTLINE_AUTH: "accounts" };
    expect(bodyLimit("/api/auth/sign-up/email", {}, accounts)).toBe(SIGN_IN_BODY_LIMIT);
    expect(bodyLimit("/api/chat", { cookie: "hintline_session=x" }, accounts)).toBe(SIGN_IN_BODY_LIMIT);
    expect(bodyLimit("/api/chat", { cookie: "a=1; hintline.session_token=x" }, accounts)).toBeGreaterThan(32 * 1024 * 1024);
    expect(bodyLimit("/api/chat", { cookie: "__Secure-hintline.session_token=x" }, accounts)).toBeGreaterThan(32 * 1024 * 1024);
  });
});

describe("API paths with dot segments", () => {
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
