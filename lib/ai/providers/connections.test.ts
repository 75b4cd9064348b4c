// Models of connections added over the API (issue 46): what `<connection>/<model>` means (endpoint, key, window),
// the list GET /api/models offers, and a real call through a connection to the OpenAI fake.
import { generateText } from "ai";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type OpenAIFake, startOpenAIFake } from "../../../tests/support/openai-fake.ts";
import {
  type ConnectionEndpoint,
  connectionEndpoint,
  modelListing,
  setConnectionEndpoints,
  setModelListing,
} from "./connections.ts";
import { chooseModel, defaultModelId, listModels, resolveModel } from "./index.ts";

const LAB: ConnectionEndpoint = {
  id: "lab",
  kind: "openai-compatible",
  baseUrl: "http://127.0.0.1:1/v1",
  enabled: true,
};
const served = (
  id: string,
  models: Array<{ name: string; contextWindow?: number; windowSource?: "server" | "ollama-default" }>,
) => setModelListing(id, { models, listedAt: Date.now() });

afterEach(() => setConnectionEndpoints([]));

describe("a connection's models", () => {
  it("resolve <connection>/<model> to the connection, a compatible server's name keeping its slashes", () => {
    setConnectionEndpoints([LAB]);
    const choice = chooseModel("lab/Qwen/Qwen2.5-7B-Instruct", {});
    expect(choice).toMatchObject({ provider: "connection", model: "Qwen/Qwen2.5-7B-Instruct", endpoint: LAB });
    expect(choice.info).toEqual({
      id: "lab/Qwen/Qwen2.5-7B-Instruct",
      provider: "openai-compatible",
      connection: "lab",
      contextWindow: 32_768, // the table's qwen2.5
      isDemo: false,
    });
    // Not a connection: what the id always meant.
    expect(() => chooseModel("elsewhere/model", {})).toThrow(/names no connection of this server/);
  });

  it("take the server's window first, then HINTLINE_CONTEXT_WINDOW, then Ollama's default, then the table", () => {
    setConnectionEndpoints([LAB]);
    served("lab", [
      { name: "small", contextWindow: 4_096, windowSource: "server" },
      { name: "llama3.2:latest", contextWindow: 4_096, windowSource: "ollama-default" },
    ]);
    expect(chooseModel("lab/small", { HINTLINE_CONTEXT_WINDOW: "64000" }).info.contextWindow).toBe(4_096);
    expect(chooseModel("lab/llama3.2:latest", {}).info.contextWindow).toBe(4_096);
    expect(chooseModel("lab/llama3.2:latest", { HINTLINE_CONTEXT_WINDOW: "16384" }).info.contextWindow).toBe(16_384);
    expect(chooseModel("lab/unlisted-model", {}).info.contextWindow).toBe(8_192);
  });

  it("hold a Gemini connection's names to the URL pattern and refuse a disabled one or an unreadable key in words", () => {
    setConnectionEndpoints([
      { id: "gem", kind: "google", apiKey: "k", enabled: true },
      { ...LAB, id: "off", enabled: false },
      { ...LAB, id: "lost", keyUnreadable: true },
      { id: "claude", kind: "anthropic", apiKey: "k", enabled: true },
    ]);
    expect(chooseModel("gem/gemini-2.5-flash", {}).info.contextWindow).toBe(1_048_576);
    expect(() => chooseModel("gem/../../v1/files", {})).toThrow(/goes into the request's URL/);
    expect(() => chooseModel("off/x", {})).toThrow(/connection off is disabled/);
    expect(() => chooseModel("lost/x", {})).toThrow(/cannot be decrypted/);
    expect(() => chooseModel("claude/mystery", {})).toThrow(/HINTLINE_CONTEXT_WINDOW/);
    expect(() => chooseModel("lab/x", {})).toThrow(); // gone once the endpoints were replaced
  });

  it("are listed per enabled connection, the same name on two connections twice, the demo last", () => {
    setConnectionEndpoints([LAB, { ...LAB, id: "lab-two" }, { ...LAB, id: "off", enabled: false }]);
    served("lab", [{ name: "a" }, { name: "b", contextWindow: 4_096, windowSource: "server" }]);
    served("lab-two", [{ name: "a" }]);
    served("off", [{ name: "hidden" }]);
    const { default: id, models } = listModels({});
    expect(id).toBe("hintline-demo");
    expect(models.map((m) => [m.id, m.connection, m.contextWindow])).toEqual([
      ["hintline-demo", undefined, 8_192],
      ["lab/a", "lab", 8_192],
      ["lab/b", "lab", 4_096],
      ["lab-two/a", "lab-two", 8_192],
    ]);
    expect(listModels({ HINTLINE_DEMO: "off" }).models.map((m) => m.id)).toEqual(["lab/a", "lab/b", "lab-two/a"]);
    expect(defaultModelId({ HINTLINE_DEMO: "off" })).toBe("lab/a");
    expect(defaultModelId({ HINTLINE_MODEL: "lab-two/a" })).toBe("lab-two/a");
  });
});

describe("reading the connections again", () => {
  it("keeps an unchanged one as it was (its listing, and the object a listing under way compares with)", () => {
    setConnectionEndpoints([LAB]);
    served("lab", [{ name: "a" }]);
    const before = connectionEndpoint("lab");
    setConnectionEndpoints([{ ...LAB }]);
    expect(connectionEndpoint("lab")).toBe(before);
    expect(modelListing("lab")?.models).toEqual([{ name: "a" }]);
    setConnectionEndpoints([{ ...LAB, baseUrl: "http://127.0.0.1:2/v1" }]);
    expect(modelListing("lab")).toBeUndefined();
  });
});

describe("a call through a connection", () => {
  let fake: OpenAIFake;
  beforeAll(async () => {
    fake = await startOpenAIFake();
  });
  afterAll(() => fake.close());

  it("goes to the connection's URL with its key and the model's name as the server listed it", async () => {
    setConnectionEndpoints([
      { id: "lab", kind: "openai-compatible", baseUrl: fake.url, apiKey: "lab-key-123", enabled: true },
    ]);
    fake.enqueue({ text: "From the lab." });
    const { model } = resolveModel({}, { id: "lab/Qwen/Qwen2.5-7B-Instruct" });
    const { text } = await generateText({ model, prompt: "hi" });
    expect(text).toBe("From the lab.");
    expect(fake.requests.at(-1)!.body.model).toBe("Qwen/Qwen2.5-7B-Instruct");
    expect(fake.requests.at(-1)!.headers.authorization).toBe("Bearer lab-key-123");
  });
});
