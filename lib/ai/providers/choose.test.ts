// provider/model ids: what each means under an environment, the errors that name what to set, the default, the list,
// and real calls through each provider's SDK to its HTTP fake.
import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { startAnthropicFake } from "../../../tests/support/anthropic-fake.ts";
import { startGeminiFake } from "../../../tests/support/gemini-fake.ts";
import { wordsFor } from "../../operator-words.ts";
import { chooseModel, defaultModelId, listModels, parseModelId, replyTokenCeiling, resolveModel } from "./index.ts";

const ANTHROPIC = { ANTHROPIC_API_KEY: "sk-ant" };
const GOOGLE = { GOOGLE_GENERATIVE_AI_API_KEY: "g-key" };
const OPENAI = { OPENAI_API_KEY: "sk-test" };

describe("parseModelId", () => {
  it("splits a known provider prefix and leaves any other id bare", () => {
    expect(parseModelId("anthropic/claude-sonnet-4-5")).toEqual({ provider: "anthropic", model: "claude-sonnet-4-5" });
    expect(parseModelId("google/gemini-2.5-pro")).toEqual({ provider: "google", model: "gemini-2.5-pro" });
    expect(parseModelId("openai/gpt-4o")).toEqual({ provider: "openai", model: "gpt-4o" });
    expect(parseModelId("gpt-4o")).toEqual({ provider: undefined, model: "gpt-4o" });
    // A local server's own ids may hold a slash: bare.
    expect(parseModelId("meta-llama/Llama-3.1-8B")).toEqual({ provider: undefined, model: "meta-llama/Llama-3.1-8B" });
  });
});

describe("chooseModel", () => {
  it("knows the windows of the current Claude and Gemini models", () => {
    for (const id of [
      "claude-opus-4-1",
      "claude-sonnet-4-5",
      "claude-haiku-4-5",
      "claude-opus-4-5",
      "claude-sonnet-4-20250514",
    ]) {
      expect(chooseModel(`anthropic/${id}`, ANTHROPIC).info).toEqual({
        id: `anthropic/${id}`,
        provider: "anthropic",
        contextWindow: 200_000,
        isDemo: false,
      });
    }
    for (const id of [
      "gemini-2.5-pro",
      "gemini-2.5-flash",
      "gemini-2.5-flash-lite",
      "gemini-2.0-flash",
      "gemini-3-pro-preview",
    ]) {
      expect(chooseModel(`google/${id}`, GOOGLE).info).toMatchObject({ provider: "google", contextWindow: 1_048_576 });
    }
    expect(chooseModel("openai/gpt-4.1", OPENAI).info).toMatchObject({ provider: "openai", contextWindow: 1_047_576 });
  });

  it("names the variable a provider needs when it is not configured", () => {
    expect(() => chooseModel("anthropic/claude-sonnet-4-5", OPENAI)).toThrow(/ANTHROPIC_API_KEY/);
    expect(() => chooseModel("google/gemini-2.5-pro", ANTHROPIC)).toThrow(/GOOGLE_GENERATIVE_AI_API_KEY/);
    // A bare id means OpenAI, as it always did.
    expect(() => chooseModel("gpt-4o", ANTHROPIC)).toThrow(/OPENAI_API_KEY.*anthropic\//);
  });

  it("refuses an unknown model of a named provider unless HINTLINE_CONTEXT_WINDOW says its window", () => {
    expect(() => chooseModel("anthropic/claude-next", { ...ANTHROPIC, HINTLINE_CONTEXT_WINDOW: "" })).not.toThrow(); // "claude" is known
    expect(() => chooseModel("google/palm-9", GOOGLE)).toThrow(
      /context window of google\/palm-9.*HINTLINE_CONTEXT_WINDOW/,
    );
    expect(chooseModel("google/palm-9", { ...GOOGLE, HINTLINE_CONTEXT_WINDOW: "64000" }).info.contextWindow).toBe(
      64_000,
    );
    // A bare id on an OpenAI-compatible server keeps today's fallback window.
    expect(chooseModel("my-local-model", { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" }).info).toMatchObject({
      provider: "openai-compatible",
      contextWindow: 8192,
    });
  });

  it("offers the demo model beside every provider unless HINTLINE_DEMO=off (issue 46)", () => {
    expect(chooseModel("hintline-demo", {}).info.isDemo).toBe(true);
    expect(chooseModel("demo/hintline-demo", GOOGLE).info).toMatchObject({ id: "hintline-demo", isDemo: true });
    expect(() => chooseModel("hintline-demo", { ...GOOGLE, HINTLINE_DEMO: "off" })).toThrow(/HINTLINE_DEMO=off/);
    expect(() => chooseModel("anthropic/", ANTHROPIC)).toThrow(/names no model/);
  });
});

describe("a model name that goes into a URL", () => {
  // Gemini's id is a path segment (`/models/{id}:streamGenerateContent`): each of these rewrote the request's path.
  const steering = [
    "google/gemini-2.5-flash/../../upload/v1beta/files",
    "google/x/../gemini-2.5-flash",
    "google/tunedModels/gemini-2.5-flash",
    "google/gemini-2.5-flash\\..\\..\\files",
    "google/gemini-2.5-flash:generateContent?alt=json&x=",
    "google/gemini-2.5-flash#",
    "google/gemini-2.5-flash%2F..%2F..%2Ffiles",
    "google/.gemini-2.5-flash",
    "google/gemini 2.5",
  ];

  it("matches [A-Za-z0-9][A-Za-z0-9._:-]* for Gemini, with or without a window override", () => {
    for (const env of [GOOGLE, { ...GOOGLE, HINTLINE_CONTEXT_WINDOW: "64000" }]) {
      for (const id of steering)
        expect(() => chooseModel(id, env), id).toThrow(/goes into the request's URL.*letters, digits/);
    }
    for (const id of [
      "google/gemini-2.5-flash",
      "google/gemini-2.0-flash-001",
      "google/gemini-3-pro-preview",
      "google/gemini-exp-1206:latest",
    ]) {
      expect(chooseModel(id, GOOGLE).model).toBe(id.slice("google/".length));
    }
  });

  it("leaves names that travel in a request body alone: a compatible server's Qwen/…, Anthropic's", () => {
    const local = { OPENAI_BASE_URL: "http://127.0.0.1:1/v1" };
    expect(chooseModel("Qwen/Qwen2.5-7B-Instruct", local).model).toBe("Qwen/Qwen2.5-7B-Instruct");
    expect(chooseModel("openai/meta-llama/Llama-3.1-8B", { ...local, HINTLINE_CONTEXT_WINDOW: "8192" }).model).toBe(
      "meta-llama/Llama-3.1-8B",
    );
    expect(chooseModel("anthropic/claude-sonnet-4-5", ANTHROPIC).model).toBe("claude-sonnet-4-5");
  });
});

describe("defaultModelId", () => {
  it("is HINTLINE_MODEL, else the first configured provider's, else the demo", () => {
    expect(defaultModelId({})).toBe("hintline-demo");
    expect(defaultModelId({ HINTLINE_MODEL: "anthropic/claude-opus-4-1" })).toBe("hintline-demo");
    expect(defaultModelId(OPENAI)).toBe("gpt-4o-mini");
    expect(defaultModelId({ ...ANTHROPIC, ...GOOGLE })).toBe("anthropic/claude-sonnet-4-5");
    expect(defaultModelId(GOOGLE)).toBe("google/gemini-2.5-flash");
    expect(defaultModelId({ ...OPENAI, ...ANTHROPIC, HINTLINE_MODEL: "anthropic/claude-haiku-4-5" })).toBe(
      "anthropic/claude-haiku-4-5",
    );
  });
});

describe("listModels", () => {
  it("lists the default first and each configured provider's models, once each", () => {
    const { default: id, models } = listModels({ ...OPENAI, ...ANTHROPIC, ...GOOGLE });
    expect(id).toBe("gpt-4o-mini");
    expect(models[0]).toMatchObject({ id: "gpt-4o-mini", provider: "openai" });
    const ids = models.map((m) => m.id);
    expect(ids).not.toContain("openai/gpt-4o-mini");
    expect(ids).toEqual(
      expect.arrayContaining([
        "openai/gpt-4.1",
        "anthropic/claude-sonnet-4-5",
        "anthropic/claude-haiku-4-5",
        "google/gemini-2.5-pro",
        "google/gemini-2.5-flash",
      ]),
    );
    expect(new Set(models.map((m) => m.provider))).toEqual(new Set(["openai", "anthropic", "google", "demo"]));
    expect(models.at(-1)).toMatchObject({ id: "hintline-demo", isDemo: true });
    expect(listModels({ ...OPENAI, HINTLINE_DEMO: "off" }).models.some((m) => m.isDemo)).toBe(false);
  });

  it("is the demo alone with no provider, and only the configured model of an OpenAI-compatible server", () => {
    expect(listModels({}).models).toEqual([
      { id: "hintline-demo", provider: "demo", contextWindow: 8192, isDemo: true },
    ]);
    const local = listModels({ OPENAI_BASE_URL: "http://127.0.0.1:1/v1", HINTLINE_MODEL: "llama3.1:8b" });
    expect(local.models.map((m) => m.id)).toEqual(["llama3.1:8b", "hintline-demo"]);
  });
});

describe("replyTokenCeiling of Claude and Gemini", () => {
  it("stays within each family's output maximum", () => {
    expect(replyTokenCeiling("anthropic/claude-sonnet-4-5", {})).toBe(32_768);
    expect(replyTokenCeiling("anthropic/claude-3-haiku-20240307", {})).toBe(4096);
    expect(replyTokenCeiling("google/gemini-2.5-pro", {})).toBe(32_768);
  });
});

describe("calls through each provider's SDK", () => {
  const ask = async (env: Record<string, string>, id: string) => {
    const { model } = resolveModel(env, { id });
    const result = streamText({ model, prompt: "Hi", maxRetries: 0, onError: () => {} });
    let text = "";
    for await (const part of result.stream) if (part.type === "text-delta") text += part.text;
    return text;
  };

  it("reach the Anthropic Messages API at ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY", async () => {
    const fake = await startAnthropicFake({ apiKey: "sk-ant" });
    try {
      expect(
        await ask({ ANTHROPIC_API_KEY: "sk-ant", ANTHROPIC_BASE_URL: fake.url }, "anthropic/claude-sonnet-4-5"),
      ).toBe("Hello from the Anthropic fake.");
      expect(fake.requests[0]!.body.model).toBe("claude-sonnet-4-5");
    } finally {
      await fake.close();
    }
  });

  it("reach the Gemini API at GOOGLE_BASE_URL with GOOGLE_GENERATIVE_AI_API_KEY", async () => {
    const fake = await startGeminiFake({ apiKey: "g-key" });
    try {
      expect(
        await ask({ GOOGLE_GENERATIVE_AI_API_KEY: "g-key", GOOGLE_BASE_URL: fake.url }, "google/gemini-2.5-flash"),
      ).toBe("Hello from the Gemini fake.");
      expect(fake.requests[0]!.path).toContain("gemini-2.5-flash");
    } finally {
      await fake.close();
    }
  });

  it("send a Gemini model name percent-encoded in the path, so its `:` cannot name another method", async () => {
    const fake = await startGeminiFake({ apiKey: "g-key" });
    try {
      const env = { GOOGLE_GENERATIVE_AI_API_KEY: "g-key", GOOGLE_BASE_URL: fake.url };
      expect(await ask(env, "google/gemini-2.5-flash:generateContent")).toBe("Hello from the Gemini fake.");
      expect(fake.requestLines).toEqual([
        "POST /v1beta/models/gemini-2.5-flash%3AgenerateContent:streamGenerateContent?alt=sse",
      ]);
    } finally {
      await fake.close();
    }
  });
});

describe("a model this server cannot use, in its reader's words", () => {
  it("names the variable to set to the operator only; a member reads whom to ask", () => {
    const refusals = [
      () => chooseModel("gpt-4o", GOOGLE),
      () => chooseModel("anthropic/claude-sonnet-4-5", GOOGLE),
      () => chooseModel("google/some-new-model", GOOGLE),
      () => chooseModel("hintline-demo", { ...GOOGLE, HINTLINE_DEMO: "off" }),
    ];
    for (const refuse of refusals) {
      let message = "";
      try {
        refuse();
      } catch (error) {
        message = (error as Error).message;
      }
      expect(wordsFor(message, true)).toMatch(/[A-Z]+_[A-Z_]+/);
      const person = wordsFor(message, false);
      expect(person, message).not.toMatch(/[A-Z]+_[A-Z_]+|\u27e6|\u27e7/);
      expect(person).toMatch(/[Cc]hoose another model/);
    }
  });
});
