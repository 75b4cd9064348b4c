import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { ChatChunk } from "../chat-message.ts";
import { cutChunk, untrustedEnd } from "./reply-limits.ts";
import { runReply } from "./reply-loop.ts";

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 3, text: 3, reasoning: 0 },
};

function deltas(texts: string[], finish: "stop" | "length" = "stop") {
  return {
    stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
      { type: "text-start", id: "t" },
      ...texts.map((delta) => ({ type: "text-delta" as const, id: "t", delta })),
      { type: "text-end", id: "t" },
      { type: "finish", finishReason: { unified: finish, raw: finish }, usage },
    ]),
  };
}

const textOf = (parts: { type: string; text?: string }[]) =>
  parts
    .filter((p) => p.type === "text")
    .map((p) => p.text)
    .join("");

describe("a reply's limits", () => {
  it("ends the reply as incomplete at its character ceiling, the last chunk cut to fit", async () => {
    const model = new MockLanguageModelV4({ doStream: [deltas(["aaaa", "bbbb", "cccc", "dddd"])] });
    const chunks: ChatChunk[] = [];
    const outcome = await runReply({
      model,
      instructions: "S",
      history: [{ role: "user", content: "go" }],
      replyId: "r",
      maxReplyChars: 10,
      emit: (c) => chunks.push(c),
    });
    expect(outcome.status).toBe("incomplete");
    expect(outcome.error).toBe("The reply reached its 10-character limit and was stopped.");
    expect(textOf(outcome.reply.parts)).toBe("aaaabbbbcc");
  });

  it("ends the reply as incomplete when the model stops at its output-token limit", async () => {
    const model = new MockLanguageModelV4({ doStream: [deltas(["cut sh"], "length")] });
    const outcome = await runReply({
      model,
      instructions: "S",
      history: [{ role: "user", content: "go" }],
      replyId: "r",
      maxOutputTokens: 512,
      emit: () => {},
    });
    expect(outcome).toMatchObject({
      status: "incomplete",
      error: "The reply reached its 512-token limit and was stopped.",
    });
  });

  it("never cuts between the halves of a surrogate pair", () => {
    expect(cutChunk({ type: "text-delta", id: "t", delta: "ab😀c" }, 3)).toEqual({
      type: "text-delta",
      id: "t",
      delta: "ab",
    });
    expect(cutChunk({ type: "text-delta", id: "t", delta: "😀" }, 1)).toBeUndefined();
  });

  it("names what a provider sent instead of a finished stream", () => {
    expect(untrustedEnd("stop", "text/html")).toBeUndefined();
    expect(untrustedEnd("interrupted", "text/html; charset=utf-8")).toMatch(
      /answered with text\/html instead of a stream/,
    );
    expect(untrustedEnd("interrupted", "text/event-stream")).toMatch(/ended without saying the reply was finished/);
  });
});
