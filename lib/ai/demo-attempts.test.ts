import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { streamText } from "ai";
import { describe, expect, it } from "vitest";
import { attemptOf } from "./demo-attempts.ts";
import { CONTINUE_REMINDER } from "../agent/continue-reply.ts";
import { createDemoModel, decide } from "./demo-model.ts";
import { DEMO_ATTEMPT_OPTIONS } from "./demo-model-id.ts";

const user = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe("the demo model's Regenerate", () => {
  it("words each attempt differently, and the same attempt the same way", () => {
    const essay = [user("write 40 words about rivers")];
    const [first, second, third] = [0, 1, 2].map((attempt) => decide(essay, undefined, attempt).text);
    expect(new Set([first, second, third]).size).toBe(3);
    for (const text of [first, second, third]) expect(words(text!)).toHaveLength(40);
    expect(decide(essay, undefined, 1).text).toBe(second);
    const hello = [user("hello")];
    expect(decide(hello, undefined, 1).text).not.toBe(decide(hello).text);
    expect(decide(hello, undefined, 1).text).toBe(decide(hello, undefined, 1).text);
    expect(decide(hello, undefined, 1).text).toMatch(/^Let me put that another way\.\n\nHello!/);
  });

  it("leaves tool calls alone, and a Continue of an attempt goes on with that attempt's words", () => {
    const tasks = [user("add tasks: a; b")];
    expect(decide(tasks, undefined, 3).calls).toEqual(decide(tasks).calls);
    const asked = [user("write 60 words about lakes")];
    const whole = decide(asked, undefined, 2).text;
    const stopped: LanguageModelV4Prompt = [
      ...asked,
      { role: "assistant", content: [{ type: "text", text: words(whole).slice(0, 10).join(" ") }] },
      user(CONTINUE_REMINDER),
    ];
    expect(decide(stopped, undefined, 2).text).toBe(words(whole).slice(10).join(" "));
  });

  it("reads the attempt from the call's providerOptions, and a forged or missing one as the first", async () => {
    expect(attemptOf({ providerOptions: { [DEMO_ATTEMPT_OPTIONS]: { attempt: 2 } } })).toBe(2);
    for (const attempt of [-1, 1.5, "2", null, Number.MAX_VALUE])
      expect(attemptOf({ providerOptions: { [DEMO_ATTEMPT_OPTIONS]: { attempt } } })).toBe(0);
    expect(attemptOf({})).toBe(0);
    const model = createDemoModel({ wordDelayMs: 0 });
    const answer = async (attempt?: number) =>
      streamText({
        model,
        prompt: "write 20 words about deltas",
        ...(attempt ? { providerOptions: { [DEMO_ATTEMPT_OPTIONS]: { attempt } } } : {}),
      }).text;
    expect(await answer(1)).not.toBe(await answer());
    expect(await answer(1)).toBe(await answer(1));
  });
});
