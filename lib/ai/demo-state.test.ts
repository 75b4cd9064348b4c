import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { decideStateHints } from "../agent/state-sources.ts";
import { decide } from "./demo-model.ts";

const user = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const NOW = new Date("2026-07-01T12:00:00Z");
const hint = (fields: Record<string, string>, told?: Record<string, string>) =>
  decideStateHints({
    sources: [{ name: "deploy", maxTokens: 200, reading: { ok: true, fields, readAt: NOW.toISOString() } }],
    told: told ? { deploy: { values: told } } : undefined,
    now: NOW,
    contextWindow: 8192,
  })[0]!.text;

describe("demo model and state sources", () => {
  it("answers a source's field from the newest State reminder, and says when it was told nothing", () => {
    const question = user("What is the status of deploy?");
    expect(decide([question]).text).toBe(
      "I haven't been told the state of deploy in this conversation, so I can't say its status.",
    );
    const first = user(hint({ status: "green" }));
    expect(decide([first, question]).text).toBe(
      "According to the newest state reminder, the status of deploy is green.",
    );
    const changed = user(hint({ status: "rolling back <1.4.1>" }, { status: "green" }));
    expect(decide([first, user("hi"), changed, question]).text).toBe(
      "According to the newest state reminder, the status of deploy is rolling back <1.4.1>.",
    );
  });

  it("says a source told unavailable is unavailable", () => {
    const down = decideStateHints({
      sources: [
        {
          name: "deploy",
          maxTokens: 200,
          reading: { ok: false, reason: "it answered HTTP 500", since: "2026-07-01T11:00:00.000Z" },
        },
      ],
      told: undefined,
      now: NOW,
      contextWindow: 8192,
    })[0]!.text;
    expect(decide([user(down), user("what's the status of deploy?")]).text).toBe(
      "The newest state reminder says deploy is unavailable since 2026-07-01T11:00:00.000Z.",
    );
  });
});
