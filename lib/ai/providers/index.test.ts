import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { describeError } from "../../agent/describe-error.ts";
import { type OpenAIFake, startOpenAIFake } from "../../../tests/support/openai-fake.ts";
import { contextWindowFor, FALLBACK_CONTEXT_WINDOW } from "../context-windows.ts";
import { replyTokenCeiling, resolveModel } from "./index.ts";

describe("resolveModel", () => {
  it("uses the offline demo model when neither key nor base URL is set", () => {
    const { info } = resolveModel({});
    expect(info).toEqual({ id: "hintline-demo", provider: "demo", contextWindow: 8192, isDemo: true });
  });

  it("uses an OpenAI-compatible server through the Chat Completions API", () => {
    const { model, info } = resolveModel({
      OPENAI_BASE_URL: "http://127.0.0.1:11434/v1",
      HINTLINE_MODEL: "llama3.1:8b",
    });
    expect(info).toMatchObject({
      id: "llama3.1:8b",
      provider: "openai-compatible",
      contextWindow: 131_072,
      isDemo: false,
    });
    expect((model as { provider: string }).provider).toContain("chat");
  });

  it("uses OpenAI with a key and honours HINTLINE_CONTEXT_WINDOW", () => {
    const { info } = resolveModel({ OPENAI_API_KEY: "sk-test", HINTLINE_CONTEXT_WINDOW: "32000" });
    expect(info).toMatchObject({ id: "gpt-4o-mini", provider: "openai", contextWindow: 32_000 });
  });
});

describe("the provider's requests", () => {
  it("refuse a redirect (with a sentence saying so) rather than send the conversation again elsewhere", async () => {
    let fake: OpenAIFake | undefined;
    const seen: string[] = [];
    const redirecting = createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(307, { location: `${fake!.url}/chat/completions` }).end();
    });
    try {
      fake = await startOpenAIFake();
      await new Promise<void>((resolve) => redirecting.listen(0, "127.0.0.1", resolve));
      const { port } = redirecting.address() as AddressInfo;
      const send = async (baseUrl: string) => {
        const { model } = resolveModel({ OPENAI_BASE_URL: baseUrl, HINTLINE_MODEL: "fake-model" });
        let failure: unknown;
        let text = "";
        for await (const part of streamText({ model, prompt: "Hi", maxRetries: 0, onError: () => {} }).stream) {
          if (part.type === "error") failure = part.error;
          if (part.type === "text-delta") text += part.text;
        }
        return { failure, text };
      };
      const direct = await send(fake.url);
      expect(direct).toEqual({ failure: undefined, text: "Hello from the fake." });
      const redirected = await send(`http://127.0.0.1:${port}/v1`);
      expect(seen).toEqual(["POST /v1/chat/completions"]);
      expect(fake.requests).toHaveLength(1);
      expect(redirected.text).toBe("");
      expect(describeError(redirected.failure)).toMatch(/redirects elsewhere.*OPENAI_BASE_URL/);
    } finally {
      redirecting.close();
      await fake?.close();
    }
  });
});

describe("usage figures that are not numbers", () => {
  it("are dropped before the AI SDK reads them, so a good reply is not an error", async () => {
    const fake = await startOpenAIFake();
    try {
      const { model } = resolveModel({ OPENAI_BASE_URL: fake.url, HINTLINE_MODEL: "fake-model" });
      const cases = [
        { promptTokens: "12", completionTokens: 3 },
        { promptTokens: 12, completionTokens: "many" },
        { promptTokens: null },
      ];
      for (const usage of cases) {
        fake.enqueue({ text: "All good.", usage });
        const result = streamText({ model, prompt: "Hi", maxRetries: 0, onError: () => {} });
        const parts: { type: string }[] = [];
        for await (const part of result.stream) parts.push(part);
        expect(parts.filter((p) => p.type === "error")).toEqual([]);
        expect(await result.text).toBe("All good.");
        expect(await result.finishReason).toBe("stop");
      }
    } finally {
      await fake.close();
    }
  });
});

describe("replyTokenCeiling", () => {
  it("is HINTLINE_MAX_REPLY_TOKENS, else 32,768 within a known OpenAI model's maximum, else not sent", () => {
    expect(replyTokenCeiling("llama3.1:8b", { HINTLINE_MAX_REPLY_TOKENS: "2000" })).toBe(2000);
    expect(replyTokenCeiling("gpt-4o-mini", {})).toBe(16_384);
    expect(replyTokenCeiling("gpt-4.1", {})).toBe(32_768);
    expect(replyTokenCeiling("gpt-5-mini", {})).toBe(32_768);
    expect(replyTokenCeiling("llama3.1:8b", {})).toBeUndefined();
    expect(replyTokenCeiling("gpt-4o", { HINTLINE_MAX_REPLY_TOKENS: "lots" })).toBe(16_384);
  });
});

describe("contextWindowFor", () => {
  it("matches the longest known prefix and falls back for unknown models", () => {
    expect(contextWindowFor("gpt-4o-mini")).toBe(128_000);
    expect(contextWindowFor("gpt-4")).toBe(8_192);
    expect(contextWindowFor("gpt-4.1-nano")).toBe(1_047_576);
    expect(contextWindowFor("openai/gpt-4o")).toBe(128_000);
    expect(contextWindowFor("my-own-model")).toBe(FALLBACK_CONTEXT_WINDOW);
    expect(contextWindowFor("my-own-model", 50_000)).toBe(50_000);
  });
});
