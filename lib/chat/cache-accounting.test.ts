import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createCacheBreakDetector } from "../agent/cache-breaks.ts";
import { sharedCacheSizes } from "../bounded-map.ts";
import type { CallUsage, ChatMessage } from "../chat-message.ts";
import { cacheFigures, DETECTORS_MAX_BYTES, keepDetector, parseCacheBreaks } from "./cache-accounting.ts";

describe("the cache-break detectors kept per conversation", () => {
  it("stay within their byte budget when conversations are long", () => {
    const base = { system: "s", tools: "[]", promptSource: "{}", compression: "" };
    for (let i = 0; i < 40; i++) {
      const messages: ModelMessage[] = [{ role: "user", content: `${i} ${"long history ".repeat(25_000)}` }];
      const detector = createCacheBreakDetector();
      detector.observe({ ...base, messages });
      keepDetector(`conversation-${i}`, { detector, version: undefined });
    }
    const cache = sharedCacheSizes()["cache-break-detectors"]!;
    expect(cache.bytes).toBeLessThanOrEqual(DETECTORS_MAX_BYTES);
    expect(cache.entries).toBeLessThan(40);
    expect(cache.entries).toBeGreaterThan(0);
  });
});

describe("a zero cache read under the model's minimum", () => {
  const reply = (model: string, usage: CallUsage[]): ChatMessage => ({
    id: `m-${model}-${usage.length}`,
    role: "assistant",
    parts: [],
    metadata: { model, usage },
  });
  const person: ChatMessage = { id: "u", role: "user", parts: [{ type: "text", text: "hi" }] };

  it("is shown as below-cache-floor with the model's minimum, and only then", () => {
    // Haiku 4.5 caches from 4,096 tokens: a 3,000-token call reads nothing, and that is why.
    const short = cacheFigures([
      person,
      reply("anthropic/claude-haiku-4-5", [{ inputTokens: 3000, cachedInputTokens: 0 }]),
    ]);
    expect(short.lastCall).toEqual({
      inputTokens: 3000,
      cachedInputTokens: 0,
      cacheReason: "below-cache-floor",
      minCacheTokens: 4096,
    });
    // Above the minimum a zero read has no such excuse; a read is no zero read; an unknown model knows no minimum.
    for (const [model, call] of [
      ["anthropic/claude-haiku-4-5", { inputTokens: 5000, cachedInputTokens: 0 }],
      ["anthropic/claude-haiku-4-5", { inputTokens: 3000, cachedInputTokens: 1000 }],
      ["ollama/llama3", { inputTokens: 10, cachedInputTokens: 0 }],
    ] as const) {
      expect(cacheFigures([person, reply(model, [call])]).lastCall).toEqual(call);
    }
    // The reply being written is judged by its own model.
    const running = cacheFigures([person], [{ inputTokens: 900, cachedInputTokens: 0 }], "google/gemini-3-flash");
    expect(running.lastCall).toMatchObject({ cacheReason: "below-cache-floor", minCacheTokens: 4096 });
  });
});

describe("stored cache breaks", () => {
  it("read back a ttl-expired break (changed: time), and drop a forged cause or change", () => {
    const at = "2026-12-06T10:00:00.000Z";
    const expired = { call: 3, firstChangedMessage: null, changed: "time", cause: "ttl-expired", at };
    expect(parseCacheBreaks([expired])).toEqual([expired]);
    expect(
      parseCacheBreaks([
        { ...expired, cause: "ttl-forgotten" },
        { ...expired, changed: "weather" },
      ]),
    ).toEqual([]);
  });
});
