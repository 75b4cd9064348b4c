import { describe, expect, it } from "vitest";
import { defaultSettings } from "../agent/settings.ts";
import { sharedCacheSizes } from "../bounded-map.ts";
import { SYSTEM_PROMPTS_MAX_BYTES, systemPromptFor } from "./system-prompt.ts";

describe("the assembled system prompts kept", () => {
  it("stay within their byte budget when conversations have long prompts of their own", () => {
    const settings = defaultSettings();
    for (let i = 0; i < 60; i++) {
      const prompt = systemPromptFor(
        { ...settings, prompt: { instructions: `${i} ${"Be brief. ".repeat(30_000)}` } },
        undefined,
        8_192,
      );
      expect(prompt.text).toContain(`${i} Be brief.`);
    }
    const cache = sharedCacheSizes()["system-prompts"]!;
    expect(cache.bytes).toBeLessThanOrEqual(SYSTEM_PROMPTS_MAX_BYTES);
    expect(cache.entries).toBeLessThan(60);
    // 60 prompts of 300,000 characters, each cut to its budget: about 3 s alone, far more on a loaded machine.
  }, 60_000);
});

describe("the budget of a conversation's prompt", () => {
  const settings = defaultSettings();
  const long = {
    ...settings,
    prompt: { instructions: `Window test. ${"Keep answers short and exact. ".repeat(6_000)}` },
  };
  const tokens = (window: number, s = long) =>
    systemPromptFor(s, undefined, window).sections.find((x) => x.id === "instructions")!.tokens;

  it("is a quarter of the conversation's model's window when that is smaller than the configured budget", () => {
    expect(tokens(16_000)).toBeLessThanOrEqual(4_000);
    expect(tokens(16_000)).toBeGreaterThan(3_500);
    expect(tokens(200_000)).toBeGreaterThan(7_500);
  });

  it("follows the conversation's own window setting over its model's", () => {
    const own = { ...long, context: { ...long.context, contextWindow: 16_000 } };
    expect(tokens(200_000, own)).toBe(tokens(16_000));
  });
});
