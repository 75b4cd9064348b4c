import { describe, expect, it } from "vitest";
import { bodyLimit, listenHost, SIGN_IN_BODY_LIMIT } from "./server.mjs";

describe("where the server listens", () => {
  it("listens on loopback when HOST is not set, and on any loopback address it names", () => {
    expect(listenHost({})).toEqual({ host: "127.0.0.1" });
    for (const host of ["127.0.0.1", "127.0.0.2", "localhost", "::1", "[::1]"]) expect(listenHost({ HOST: host })).toEqual({ host });
  });

  it("refuses an address open to the network without a token, unless the operator says so", () => {
    for (const host of ["0.0.0.0", "::", "192.168.1.20", "example.test"]) {
      expect(listenHost({ HOST: host }).error).toMatch(/refusing to listen on .* without an access token.*HINTLINE_AUTH_TOKEN.*HINTLINE_ALLOW_OPEN=1/s);
      expect(listenHost({ HOST: host, HINTLINE_AUTH_TOKEN: "t" })).toEqual({ host });
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
  });
});
