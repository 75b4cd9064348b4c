import { afterEach, describe, expect, it, vi } from "vitest";
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
      cause: Object.assign(new TypeError("terminated"), {
        cause: { code: "UND_ERR_SOCKET", message: "other side closed" },
      }),
    });
    expect(describeError(cut)).toBe("The connection to the model provider broke off mid-reply. Try again.");
    expect(describeError(new Error("x".repeat(1000))).length).toBeLessThan(400);
  });

  describe("the provider's words", () => {
    afterEach(() => vi.unstubAllEnvs());

    it("are scrubbed of the configured key, bearer tokens, sk- and Google keys and key= values before they are cut", () => {
      vi.stubEnv("OPENAI_API_KEY", "local-secret-0a1b2c3d4e5f");
      const body = (message: string) => ({ statusCode: 401, data: { error: { message } } });
      expect(
        describeError(
          body("Incorrect API key provided: local-secret-0a1b2c3d4e5f. Sent Authorization: Bearer tok-123456"),
        ),
      ).toBe(
        "The model provider refused the request (HTTP 401: Incorrect API key provided: [redacted]. Sent Authorization: Bearer [redacted]): check the API key (OPENAI_API_KEY).",
      );
      // Cut at 160 characters, the key would have been left in part, where no rule recognises it.
      const cut = describeError(body(`${"a".repeat(140)} local-secret-0a1b2c3d4e5f`));
      expect(cut).not.toMatch(/local-secret/);
      const google = describeError({
        statusCode: 400,
        data: { error: { message: "API key not valid: ?key=AIzaSyA-0123456789abcdefghijklmnop" } },
      });
      expect(google).not.toMatch(/AIzaSyA-0/);
      expect(describeError(new Error("request failed with api_key=hunter2-abcdef and sk-proj-abcdefghij"))).toBe(
        "The model provider failed: request failed with api_key=[redacted] and sk-[redacted]",
      );
    });
  });
});
