// Errors in words per provider: each fake answers as its API does (a wrong key, an unknown model, rate-limited,
// overloaded, a prompt too long), the provider's AI SDK package parses it, and describeError names the provider, its
// reason and what to do; the retryable ones are the ones worth retrying.
import { streamText } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicFake, startAnthropicFake } from "../../../tests/support/anthropic-fake.ts";
import type { FakeErrorName } from "../../../tests/support/fake-core.ts";
import { type GeminiFake, startGeminiFake } from "../../../tests/support/gemini-fake.ts";
import { type OpenAIFake, startOpenAIFake } from "../../../tests/support/openai-fake.ts";
import { describeError as described } from "../../agent/describe-error.ts";
import { wordsFor } from "../../operator-words.ts";
import { isRetryableError } from "../../agent/provider-retry.ts";
import { resolveModel } from "./index.ts";

let anthropic: AnthropicFake;
let gemini: GeminiFake;
let openai: OpenAIFake;
beforeAll(async () => {
  [anthropic, gemini, openai] = await Promise.all([startAnthropicFake(), startGeminiFake(), startOpenAIFake()]);
});
afterAll(async () => {
  await Promise.all([anthropic?.close(), gemini?.close(), openai?.close()]);
});

async function failure(env: Record<string, string>, id: string): Promise<unknown> {
  const { model } = resolveModel(env, { id });
  let error: unknown;
  for await (const part of streamText({ model, prompt: "Hi", maxRetries: 0, onError: () => {} }).stream)
    if (part.type === "error") error = part.error;
  return error;
}

/** As the operator reads it. */
const describeError = (error: unknown) => wordsFor(described(error), true);

const EXPECTED: Record<Exclude<FakeErrorName, "invalid" | "server">, { words: RegExp; retry: boolean }> = {
  auth: { words: /refused the request \(HTTP 40[13]: .+\): check the API key/, retry: false },
  "unknown-model": { words: /does not know this model \(HTTP 404: .+\)\. Choose another model/, retry: false },
  "rate-limit": { words: /is rate-limiting requests \(HTTP 429: .+\)\. Try again in a moment\./, retry: true },
  overloaded: { words: /is overloaded \(HTTP 5(29|03): .+\)\. Try again in a moment\./, retry: true },
  "too-long": {
    words: /The conversation is too long for this model's context window \(HTTP 400: .+\)\. Compress it/,
    retry: false,
  },
};

describe("a provider's refusal, in words", () => {
  for (const [name, { words, retry }] of Object.entries(EXPECTED) as [FakeErrorName, (typeof EXPECTED)["auth"]][]) {
    it(`${name}: Anthropic and Gemini name themselves, their reason and the variable to check`, async () => {
      anthropic.enqueue({ kind: "error", error: name });
      const a = await failure(
        { ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: anthropic.url },
        "anthropic/claude-sonnet-4-5",
      );
      expect(describeError(a)).toMatch(words);
      expect(describeError(a)).toMatch(name === "too-long" ? /prompt is too long/ : /^Anthropic /);
      expect(isRetryableError(a)).toBe(retry);
      gemini.enqueue({ kind: "error", error: name });
      const g = await failure(
        { GOOGLE_GENERATIVE_AI_API_KEY: "k", GOOGLE_BASE_URL: gemini.url },
        "google/gemini-2.5-flash",
      );
      expect(describeError(g)).toMatch(words);
      if (name !== "too-long") expect(describeError(g)).toMatch(/^Gemini /);
      expect(isRetryableError(g)).toBe(retry);
      if (name === "auth") {
        expect(describeError(a)).toContain("ANTHROPIC_API_KEY");
        expect(describeError(g)).toContain("GOOGLE_GENERATIVE_AI_API_KEY");
      }
    });
  }

  it("OpenAI's error bodies read the same way", async () => {
    const body = (message: string, type: string, code: string) => ({ error: { message, type, param: null, code } });
    const cases: Array<[number, unknown, RegExp]> = [
      [
        401,
        body("Incorrect API key provided: sk-bad.", "invalid_request_error", "invalid_api_key"),
        /refused the request \(HTTP 401: Incorrect API key.*OPENAI_API_KEY/,
      ],
      [
        404,
        body(
          "The model `gpt-9` does not exist or you do not have access to it.",
          "invalid_request_error",
          "model_not_found",
        ),
        /does not know this model/,
      ],
      [
        400,
        body(
          "This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.",
          "invalid_request_error",
          "context_length_exceeded",
        ),
        /too long for this model's context window/,
      ],
      [
        429,
        body("Rate limit reached for gpt-4o.", "requests", "rate_limit_exceeded"),
        /^The model provider is rate-limiting requests \(HTTP 429: Rate limit/,
      ],
    ];
    for (const [status, errorBody, words] of cases) {
      openai.enqueue({ kind: "http-error", status, body: errorBody });
      const e = await failure({ OPENAI_BASE_URL: openai.url, OPENAI_API_KEY: "k" }, "fake-model");
      expect(describeError(e)).toMatch(words);
    }
  });
});
