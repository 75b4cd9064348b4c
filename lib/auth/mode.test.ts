import { describe, expect, it } from "vitest";
import { authMode, openSignUp } from "./mode.ts";

describe("authMode", () => {
  it("is open without a token, token with one, and accounts only when asked for by name", () => {
    expect(authMode({})).toBe("open");
    expect(authMode({ HINTLINE_AUTH_TOKEN: "t" })).toBe("token");
    expect(authMode({ HINTLINE_AUTH: "accounts" })).toBe("accounts");
    // Accounts mode wins over a token left in the environment; a misspelt mode is not accounts.
    expect(authMode({ HINTLINE_AUTH: "accounts", HINTLINE_AUTH_TOKEN: "t" })).toBe("accounts");
    expect(authMode({ HINTLINE_AUTH: "account" })).toBe("open");
  });

  it("opens sign-up only on 1 or true", () => {
    expect(openSignUp({})).toBe(false);
    expect(openSignUp({ HINTLINE_OPEN_SIGNUP: "1" })).toBe(true);
    expect(openSignUp({ HINTLINE_OPEN_SIGNUP: "true" })).toBe(true);
    expect(openSignUp({ HINTLINE_OPEN_SIGNUP: "yes" })).toBe(false);
  });
});
