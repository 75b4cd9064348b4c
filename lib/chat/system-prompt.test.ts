import { describe, expect, it } from "vitest";
import { defaultSettings } from "../agent/settings.ts";
import { sharedCacheSizes } from "../bounded-map.ts";
import { SYSTEM_PROMPTS_MAX_BYTES, systemPromptFor } from "./system-prompt.ts";

describe("the assembled system prompts kept", () => {
  it("stay within their byte budget when conversations have long prompts of their own", () => {
    const settings = defaultSettings();
    for (let i = 0; i < 60; i++) {
      const prompt = systemPromptFor({ ...settings, prompt: { instructions: `${i} ${"Be brief. ".repeat(10_000)}` } });
      expect(prompt.text).toContain(`${i} Be brief.`);
    }
    const cache = sharedCacheSizes()["system-prompts"]!;
    expect(cache.bytes).toBeLessThanOrEqual(SYSTEM_PROMPTS_MAX_BYTES);
    expect(cache.entries).toBeLessThan(60);
  });
});
