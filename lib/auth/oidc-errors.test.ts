import { describe, expect, it } from "vitest";
import { oidcErrorText } from "./oidc-errors.ts";

describe("oidcErrorText", () => {
  it("says nothing without a code, the reason for a known one and a short generic line for the rest", () => {
    expect(oidcErrorText(undefined, "Example ID")).toBeNull();
    expect(oidcErrorText("invitation_required", "Example ID")).toMatch(/invitation link/);
    expect(oidcErrorText("state_mismatch", "Example ID")).toBe(
      "Signing in with Example ID did not complete (state_mismatch). Try again.",
    );
    // The code comes from the address bar: a long one is cut, and React renders it as text.
    expect(oidcErrorText("x".repeat(5000), undefined)!.length).toBeLessThan(120);
  });
});
