import { afterEach, describe, expect, it, vi } from "vitest";
import { metricsText } from "../../ops/metrics.ts";
import { modelLabel, replyReport } from "./report.ts";

afterEach(() => vi.unstubAllEnvs());

describe("the model label", () => {
  it("names the models this server offers and counts any other id a person picks as other", async () => {
    vi.stubEnv("OPENAI_BASE_URL", "http://127.0.0.1:1/v1");
    vi.stubEnv("HINTLINE_MODEL", "served-model");
    vi.stubEnv("HINTLINE_UTILITY_MODEL", "utility-model");
    vi.stubEnv("ANTHROPIC_API_KEY", "sk-ant");
    const report = (model: string) => replyReport({ conversationId: "c1", replyId: "r1", model });
    for (let i = 0; i < 200; i++) report(`picked-${i}`).call({ inputTokens: 10, outputTokens: 1 });
    report("served-model").call({ inputTokens: 5 });
    const { body } = await metricsText();
    const labels = new Set([...body.matchAll(/^hintline_model_calls_total\{model="([^"]*)"\}/gm)].map((m) => m[1]));
    expect(labels).toEqual(new Set(["other", "served-model"]));
    expect(body).toMatch(/^hintline_input_tokens_total\{model="other"\} 2000$/m);
    expect(body).not.toContain("picked-");
    expect(["served-model", "utility-model", "anthropic/claude-haiku-4-5"].map(modelLabel)).toEqual([
      "served-model",
      "utility-model",
      "anthropic/claude-haiku-4-5",
    ]);
  });
});
