import { describe, expect, it } from "vitest";
import { describeError } from "./describe-error.ts";

describe("describeError", () => {
  it("names refused connections, HTTP statuses and broken streams without stack traces", () => {
    const refused = Object.assign(new Error("fetch failed"), { cause: { code: "ECONNREFUSED" } });
    expect(describeError(refused)).toMatch(/Could not reach the model provider \(ECONNREFUSED\)/);
    expect(describeError({ statusCode: 500, message: "x" })).toBe("The model provider failed (HTTP 500). Try again.");
    expect(describeError({ statusCode: 429 })).toMatch(/rate-limiting/);
    expect(describeError({ statusCode: 401 })).toMatch(/API key/);
    expect(describeError({ lastError: { statusCode: 503 } })).toMatch(/HTTP 503/);
    expect(describeError(new TypeError("terminated"))).toMatch(/broke off/);
    // What the AI SDK throws for a stream cut after a 200: APICallError(200) <- TypeError(terminated) <- socket error.
    const cut = Object.assign(new Error("Failed to process successful response"), {
      statusCode: 200,
      cause: Object.assign(new TypeError("terminated"), { cause: { code: "UND_ERR_SOCKET", message: "other side closed" } }),
    });
    expect(describeError(cut)).toBe("The connection to the model provider broke off mid-reply. Try again.");
    expect(describeError(new Error("x".repeat(1000))).length).toBeLessThan(400);
  });
});
