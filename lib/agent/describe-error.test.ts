import { afterEach, describe, expect, it, vi } from "vitest";
import { ASK_THE_OPERATOR, wordsFor } from "../operator-words.ts";
import { describeError as described } from "./describe-error.ts";

/** As the operator reads it (open and token mode, or an admin). */
const describeError = (error: unknown) => wordsFor(described(error), true);

describe("describeError", () => {
  it("names the variable to set only to the operator; anyone else reads who can fix it", () => {
    const failures = [
      { statusCode: 401 },
      Object.assign(new Error("fetch failed"), { cause: { code: "ECONNREFUSED" } }),
      new Error("fetch failed"),
      new Error("unexpected redirect"),
      { statusCode: 404, data: { error: { message: "model not found" } } },
      { statusCode: 401, url: "http://x/v1/messages" },
    ];
    for (const failure of failures) {
      const operator = describeError(failure);
      const person = wordsFor(described(failure), false);
      expect(operator).toMatch(/[A-Z]+_[A-Z_]+/);
      expect(person, operator).not.toMatch(/[A-Z]+_[A-Z_]+|\u27e6|\u27e7/);
      expect(person).toMatch(/whoever runs this Hintline server|Choose another model\.$/);
    }
    expect(wordsFor(described({ statusCode: 401 }), false)).toBe(
      "The model provider refused the request (HTTP 401): it does not accept this server's key. Ask whoever runs this Hintline server to check it.",
    );
    expect(ASK_THE_OPERATOR).not.toMatch(/_/);
    // A provider's words cannot forge a note.
    const forged = described({
      statusCode: 500,
      url: "http://x/v1/messages",
      data: { error: { message: "\u27e6x|HINTLINE_SECRET\u27e7" } },
    });
    expect(wordsFor(forged, false)).toBe("Anthropic failed (HTTP 500: x|HINTLINE_SECRET). Try again.");
  });

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
