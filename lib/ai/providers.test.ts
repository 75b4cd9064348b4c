import { describe, expect, it } from "vitest";
import { contextWindowFor, FALLBACK_CONTEXT_WINDOW } from "./context-windows.ts";
import { resolveModel } from "./providers.ts";

describe("resolveModel", () => {
  it("uses the offline demo model when neither key nor base URL is set", () => {
    const { info } = resolveModel({});
    expect(info).toEqual({ id: "hintline-demo", provider: "demo", contextWindow: 8192, isDemo: true });
  });

  it("uses an OpenAI-compatible server through the Chat Completions API", () => {
    const { model, info } = resolveModel({ OPENAI_BASE_URL: "http://127.0.0.1:11434/v1", HINTLINE_MODEL: "llama3.1:8b" });
    expect(info).toMatchObject({ id: "llama3.1:8b", provider: "openai-compatible", contextWindow: 131_072, isDemo: false });
    expect((model as { provider: string }).provider).toContain("chat");
  });

  it("uses OpenAI with a key and honours HINTLINE_CONTEXT_WINDOW", () => {
    const { info } = resolveModel({ OPENAI_API_KEY: "sk-test", HINTLINE_CONTEXT_WINDOW: "32000" });
    expect(info).toMatchObject({ id: "gpt-4o-mini", provider: "openai", contextWindow: 32_000 });
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
