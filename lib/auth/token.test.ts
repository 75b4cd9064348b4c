import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { allowedHost, newSessionValue, safeEqual, safeNextPath, verifySessionValue } from "./token.ts";

describe("auth helpers", () => {
  it("compares secrets without shortcuts", () => {
    expect(safeEqual("abc", "abc")).toBe(true);
    expect(safeEqual("abc", "abd")).toBe(false);
    expect(safeEqual("abc", "abcd")).toBe(false);
  });

  it("makes a session value per sign-in that only the token verifies", async () => {
    const now = Date.UTC(2026, 0, 1);
    const a = await newSessionValue("token-a", now);
    const b = await newSessionValue("token-a", now);
    expect(a.value).toMatch(/^[0-9a-f]{32}\.\d+\.[0-9a-f]{64}$/);
    expect(a.value).not.toContain("token-a");
    expect(b.session.id).not.toBe(a.session.id);
    expect(await verifySessionValue("token-a", a.value, now)).toEqual(a.session);
    expect(await verifySessionValue("token-b", a.value, now)).toBeNull();
    const [id, expires, mac] = a.value.split(".");
    expect(await verifySessionValue("token-a", `${b.session.id}.${expires}.${mac}`, now)).toBeNull();
    expect(await verifySessionValue("token-a", `${id}.${Number(expires) + 1}.${mac}`, now)).toBeNull();
    expect(await verifySessionValue("token-a", a.value, a.session.expiresAt.getTime())).toBeNull();
    expect(await verifySessionValue("token-a", "token-a", now)).toBeNull();
  });

  it("keys the cookie's MAC with a key scrypt derives from the token, so one HMAC cannot test a guessed token", async () => {
    const { value } = await newSessionValue("token-a");
    const [id, expires, mac] = value.split(".");
    // A stolen cookie and a guess: an HMAC keyed with the guess, over any spelling of the payload, never matches.
    for (const prefix of ["", "hintline-session-v2:", "hintline-session-v3:"]) {
      expect(createHmac("sha256", "token-a").update(`${prefix}${id}.${expires}`).digest("hex")).not.toBe(mac);
    }
  });

  it("keeps a full-width solidus in `next` on the site, percent-encoded (a Location header cannot hold it)", () => {
    expect(safeNextPath("/\uff0fevil.example")).toBe("/%EF%BC%8Fevil.example");
    expect(safeNextPath("/c/caf\u00e9")).toBe("/c/caf%C3%A9");
  });

  it("only follows same-site paths after sign-in", () => {
    expect(safeNextPath("/c/abc")).toBe("/c/abc");
    expect(safeNextPath("/c/abc?x=1#y")).toBe("/c/abc?x=1#y");
    for (const hostile of [
      "//evil.example",
      "https://evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "/\r\n/evil.example",
      "/ /evil.example",
      "\t//evil.example",
      "/\u0000/evil.example",
      "/\u00a0/evil.example",
      "/\u2028/evil.example",
      "c/abc",
      "",
    ]) {
      expect(safeNextPath(hostile), JSON.stringify(hostile)).toBe("/");
    }
    expect(safeNextPath(null)).toBe("/");
  });

  it("serves loopback hosts and the ones HINTLINE_ALLOWED_HOSTS names", () => {
    for (const host of [
      "localhost",
      "localhost:3000",
      "127.0.0.1:3700",
      "127.8.9.10",
      "[::1]:80",
      "app.localhost:3000",
    ]) {
      expect(allowedHost(host, ""), host).toBe(true);
    }
    for (const host of [
      "attacker.example",
      "attacker.example:3000",
      "127.0.0.1.evil.example",
      "localhost.evil.example",
      "",
      "a b",
    ]) {
      expect(allowedHost(host, ""), host).toBe(false);
    }
    expect(allowedHost(null, "")).toBe(false);
    const extra = "chat.example.com, box:8080";
    expect(allowedHost("chat.example.com:443", extra)).toBe(true);
    expect(allowedHost("CHAT.example.com", extra)).toBe(true);
    expect(allowedHost("box:8080", extra)).toBe(true);
    expect(allowedHost("box:9090", extra)).toBe(false);
    expect(allowedHost("attacker.example", "*")).toBe(true);
  });
});
