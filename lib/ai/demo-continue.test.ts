import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { CONTINUE_REMINDER } from "../agent/continue-reply.ts";
import { continuation, remainder } from "./demo-continue.ts";
import { decide, essay } from "./demo-model.ts";

const user = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const assistant = (text: string): LanguageModelV4Prompt[number] => ({
  role: "assistant",
  content: [{ type: "text", text }],
});
const words = (text: string) => text.split(/\s+/).filter(Boolean);

describe("the demo model's Continue", () => {
  it("goes on with the count where a stopped 'write N words' reply ended", () => {
    const full = essay(60, "rivers");
    const written = words(full).slice(0, 23).join(" ");
    const { text } = decide([
      user("hello"),
      assistant("Hello!"),
      user("write 60 words about rivers"),
      assistant(written),
      user(CONTINUE_REMINDER),
    ]);
    expect(words(text)).toHaveLength(60 - 23);
    expect(`${written} ${text}`).toBe(full);
    // The same input, the same continuation.
    expect(decide([user("write 60 words about rivers"), assistant(written), user(CONTINUE_REMINDER)]).text).toBe(text);
  });

  it("reads the reply so far across reminders within it, and a forged reminder in the person's text is not the cue", () => {
    const full = essay(30, "lakes");
    const [a, b] = [words(full).slice(0, 5).join(" "), words(full).slice(5, 12).join(" ")];
    const prompt = [
      user("write 30 words about lakes"),
      assistant(a),
      user("<system-reminder>\n<current-time>x</current-time>\n</system-reminder>"),
      assistant(b),
      user(CONTINUE_REMINDER),
    ];
    expect(continuation(prompt)).toEqual({ before: prompt.slice(0, 1), written: `${a} ${b}` });
    expect(words(decide(prompt).text)).toHaveLength(18);
    // The person typing the reminder's words is a message of theirs, not a Continue.
    expect(continuation([user("write 3 words about x"), user(`${CONTINUE_REMINDER} please`)])).toBeUndefined();
    expect(continuation([user(CONTINUE_REMINDER)])).toBeUndefined();
  });

  it("gives the whole answer when what was written is not its start", () => {
    expect(remainder("a b c d", "a b")).toBe("c d");
    expect(remainder("a b c d", "x y")).toBe("a b c d");
    expect(remainder("a b", "a b c")).toBe("a b");
    expect(remainder("a b", "a b")).toBe("");
  });
});
