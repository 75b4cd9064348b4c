import type { ModelMessage } from "ai";
import { describe, expect, it } from "vitest";
import { createCacheBreakDetector } from "../agent/cache-breaks.ts";
import { sharedCacheSizes } from "../bounded-map.ts";
import { DETECTORS_MAX_BYTES, keepDetector } from "./cache-accounting.ts";

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
