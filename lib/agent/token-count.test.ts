import { describe, expect, it } from "vitest";
import { countTokens, encodingFor, selectEncodingFor } from "./token-count.ts";

describe("token counting", () => {
  it("chooses the encoding per model family", () => {
    expect(encodingFor("gpt-4o-mini")).toBe("o200k_base");
    expect(encodingFor("gpt-4.1")).toBe("o200k_base");
    expect(encodingFor("o3-mini")).toBe("o200k_base");
    expect(encodingFor("gpt-4")).toBe("cl100k_base");
    expect(encodingFor("gpt-4-turbo")).toBe("cl100k_base");
    expect(encodingFor("openai/gpt-3.5-turbo")).toBe("cl100k_base");
    expect(encodingFor("llama3.1:8b")).toBe("o200k_base");
  });

  it("counts with the chosen encoding", async () => {
    const text = "Rivers carve valleys through erosion — 12345 🌊";
    const o200k = countTokens(text);
    await selectEncodingFor("gpt-4");
    const cl100k = countTokens(text);
    await selectEncodingFor("gpt-4o");
    expect(countTokens(text)).toBe(o200k);
    expect(cl100k).not.toBe(o200k);
    expect(countTokens("")).toBe(0);
  });
});
