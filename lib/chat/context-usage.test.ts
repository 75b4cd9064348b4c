import { describe, expect, it } from "vitest";
import { defaultSettings } from "../agent/settings.ts";
import type { ChatMessage } from "../chat-message.ts";
import { contextUsageFor } from "./context-usage.ts";

const settings = defaultSettings();
const msg = (id: string, role: "user" | "assistant", text: string): ChatMessage => ({ id, role, parts: [{ type: "text", text }] });
const history = [msg("u1", "user", "hello there"), msg("a1", "assistant", "general kenobi ".repeat(50)), msg("u2", "user", "next question")];

describe("contextUsageFor", () => {
  it("uses the provider's report plus a count of only what was added since", () => {
    const usage = contextUsageFor({ settings, contextWindow: 1000, system: "sys", history, last: { inputTokens: 500, outputTokens: 120, messageCount: 2 }, tools: 0 });
    const tokenizerOnly = contextUsageFor({ settings, contextWindow: 1000, system: "sys", history: history.slice(2), tools: 0 });
    // 500 + 120 + the new message (its tokenizer count, without the system prompt).
    expect(usage.inputTokens).toBe(500 + 120 + (tokenizerOnly.inputTokens - tokenizerOnly.breakdown!.system));
    expect(usage).toMatchObject({ contextWindow: 1000, triggerTokens: 800, bufferStartTokens: 600 });
  });

  it("falls back to the tokenizer and breaks the total down by kind", () => {
    const withHint: ChatMessage = {
      id: "a2",
      role: "assistant",
      parts: [{ type: "data-hint", id: "h", data: { source: { label: "S", sublabel: "R" }, fields: {}, text: "<system-reminder>x</system-reminder>", createdAt: "" } }, { type: "text", text: "ok" }],
    };
    const usage = contextUsageFor({ settings, contextWindow: 1000, system: "system prompt", summary: "a summary", history: [...history, withHint], tools: 40 });
    const b = usage.breakdown!;
    expect(b.tools).toBe(40);
    expect(b.hints).toBeGreaterThan(0);
    expect(b.summary).toBeGreaterThan(0);
    expect(usage.inputTokens).toBe(b.system + b.tools + b.summary + b.messages + b.hints);
  });

  it("ignores a report from before a compression (the tail starts after it)", () => {
    const usage = contextUsageFor({ settings, contextWindow: 1000, system: "sys", history, tailStart: 2, last: { inputTokens: 900, outputTokens: 50, messageCount: 1 } });
    expect(usage.inputTokens).toBeLessThan(900);
  });
});
