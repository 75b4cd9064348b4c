import { describe, expect, it } from "vitest";
import { cacheLabel, fixedPartOf, hitRate, mcpToolsOf, meterLabel, shortTokens, zoneOf } from "./meter-math";

const usage = (inputTokens: number) => ({
  inputTokens,
  contextWindow: 128_000,
  triggerTokens: 102_400,
  bufferStartTokens: 76_800,
});

describe("meter math", () => {
  it("labels like “54k / 128k · 42%” and picks the zone by the buffer start and the trigger", () => {
    expect(meterLabel(usage(54_000))).toBe("54k / 128k · 42%");
    expect(shortTokens(1234)).toBe("1.2k");
    expect(zoneOf(usage(76_800))).toBe("ok");
    expect(zoneOf(usage(76_801))).toBe("buffer");
    expect(zoneOf(usage(102_400))).toBe("trigger");
  });
});

describe("cache label", () => {
  it("shows the last call's and the conversation's cached share of input", () => {
    const cache = {
      lastCall: { inputTokens: 2000, cachedInputTokens: 1840 },
      conversation: { inputTokens: 10_000, cachedInputTokens: 8_500 },
    };
    expect(cacheLabel(cache)).toBe("Cache 92 % · conversation 85 %");
    expect(cacheLabel({ lastCall: null, conversation: { inputTokens: 100, cachedInputTokens: 0 } })).toBe(
      "Cache – · conversation 0 %",
    );
    expect(cacheLabel({ lastCall: null, conversation: { inputTokens: 0, cachedInputTokens: 0 } })).toBeNull();
    expect(cacheLabel(undefined)).toBeNull();
    // A zero read under the model's minimum cacheable prompt says so (it is no break).
    const short = {
      inputTokens: 800,
      cachedInputTokens: 0,
      cacheReason: "below-cache-floor" as const,
      minCacheTokens: 1024,
    };
    expect(cacheLabel({ lastCall: short, conversation: { inputTokens: 1600, cachedInputTokens: 0 } })).toBe(
      "Cache 0 %, under the model's 1,024-token minimum · conversation 0 %",
    );
    expect(hitRate({ inputTokens: 10, cachedInputTokens: 50 })).toBe(100);
  });

  it("lists the MCP tools per server, largest first, and warns above 10 % of the window", () => {
    expect(mcpToolsOf(usage(1000))).toBeNull();
    expect(mcpToolsOf({ ...usage(1000), toolsByServer: {} })).toBeNull();
    const some = mcpToolsOf({ ...usage(20_000), toolsByServer: { files: 2_000, everything: 9_000 } });
    expect(some).toEqual({
      servers: [
        ["everything", 9_000],
        ["files", 2_000],
      ],
      tokens: 11_000,
      share: 11_000 / 128_000,
      warn: false,
    });
    expect(mcpToolsOf({ ...usage(20_000), toolsByServer: { everything: 12_801 } })?.warn).toBe(true);
    expect(mcpToolsOf({ ...usage(20_000), toolsByServer: { everything: 12_800 } })?.warn).toBe(false);
  });

  it("counts the fixed part (system prompt and every tool definition) and its share of the window", () => {
    expect(fixedPartOf(usage(1000))).toBeNull();
    const breakdown = { system: 900, tools: 1_430, summary: 0, messages: 40, hints: 30 };
    expect(fixedPartOf({ ...usage(2_400), contextWindow: 4_096, breakdown })).toEqual({ tokens: 2_330, pct: 57 });
  });
});
