import { describe, expect, it } from "vitest";
import type { ChatMessage } from "@/lib/chat-message";
import { modelSwitches } from "./model-switches";

const person = (id: string): ChatMessage => ({ id, role: "user", parts: [{ type: "text", text: id }] });
const reply = (id: string, model?: string): ChatMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "text", text: id }],
  metadata: model ? { model } : {},
});

describe("modelSwitches", () => {
  it("marks the person's message before the first reply of a new model, once per switch", () => {
    const messages = [
      person("u1"),
      reply("a1", "gpt-4o"),
      person("u2"),
      reply("a2", "gpt-4o"),
      person("u3"),
      reply("a3", "anthropic/claude-sonnet-4-5"),
      person("u4"),
      reply("a4", "anthropic/claude-sonnet-4-5"),
      person("u5"),
      reply("a5", "gpt-4o"),
    ];
    expect([...modelSwitches(messages)]).toEqual([
      ["u3", { from: "gpt-4o", to: "anthropic/claude-sonnet-4-5" }],
      ["u5", { from: "anthropic/claude-sonnet-4-5", to: "gpt-4o" }],
    ]);
  });

  it("marks the reply itself when no message of the person's precedes it (a continued reply)", () => {
    expect([...modelSwitches([person("u1"), reply("a1", "m1"), reply("a2", "m2")])]).toEqual([
      ["a2", { from: "m1", to: "m2" }],
    ]);
  });

  it("shows nothing for one model, and skips replies without a recorded model", () => {
    expect(
      modelSwitches([person("u1"), reply("a1", "m1"), person("u2"), reply("a2"), person("u3"), reply("a3", "m1")]).size,
    ).toBe(0);
    expect(modelSwitches([person("u1"), reply("a1"), person("u2"), reply("a2", "m2")]).size).toBe(0);
  });
});
