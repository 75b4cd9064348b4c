import type { LanguageModelV4StreamPart } from "@ai-sdk/provider";
import { APICallError } from "ai";
import { convertArrayToReadableStream, MockLanguageModelV4 } from "ai/test";
import { describe, expect, it } from "vitest";
import type { ChatChunk, RetryData } from "../chat-message.ts";
import { retryDelayMs } from "./provider-retry.ts";
import { runReply } from "./reply-loop.ts";

const usage = {
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const ok = () => ({
  stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
    { type: "text-start", id: "t" },
    { type: "text-delta", id: "t", delta: "fine" },
    { type: "text-end", id: "t" },
    { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
  ]),
});
const httpError = (statusCode: number, headers: Record<string, string> = {}) =>
  new APICallError({
    message: `HTTP ${statusCode}`,
    url: "http://fake/v1/chat/completions",
    requestBodyValues: {},
    statusCode,
    responseHeaders: headers,
  });

/** A model whose calls fail with the given errors, in order, then answer "fine". */
function failingModel(...errors: Error[]) {
  let call = 0;
  return new MockLanguageModelV4({
    doStream: async () => {
      const error = errors[call++];
      if (error) throw error;
      return ok();
    },
  });
}

async function reply(model: MockLanguageModelV4, extra: { maxRetries?: number; abortSignal?: AbortSignal } = {}) {
  const chunks: ChatChunk[] = [];
  const outcome = await runReply({
    model,
    instructions: "S",
    history: [{ role: "user", content: "hi" }],
    replyId: "r1",
    emit: (c) => chunks.push(c),
    retryBaseMs: 5,
    ...extra,
  });
  const retries = chunks.filter((c) => c.type === "data-retry").map((c) => (c as { data: RetryData }).data);
  return { outcome, chunks, retries };
}

describe("runReply retries", () => {
  it("retries a 429 and a 500 visibly, then completes with one clean step", async () => {
    const model = failingModel(httpError(429, { "retry-after-ms": "7" }), httpError(500));
    const { outcome, retries } = await reply(model);
    expect(outcome.status).toBe("complete");
    expect(model.doStreamCalls).toHaveLength(3);
    expect(retries).toEqual([
      { attempt: 1, maxRetries: 2, delayMs: 7, reason: "The model provider is rate-limiting requests (HTTP 429)." },
      { attempt: 2, maxRetries: 2, delayMs: 10, reason: expect.stringMatching(/HTTP 500/) },
    ]);
    expect(outcome.reply.parts.map((p) => p.type)).toEqual(["step-start", "text"]);
  });

  it("gives up after maxRetries with an error that says so", async () => {
    const model = failingModel(httpError(503), httpError(503), httpError(503), httpError(503));
    const { outcome, retries, chunks } = await reply(model);
    expect(model.doStreamCalls).toHaveLength(3);
    expect(retries).toHaveLength(2);
    expect(outcome.status).toBe("error");
    expect(outcome.error).toBe("The model provider failed (HTTP 503). Try again. (Gave up after 2 retries.)");
    expect(chunks.at(-1)).toEqual({ type: "error", errorText: outcome.error });
    expect(outcome.reply.parts).toEqual([]);
  });

  it("does not retry a request the provider rejected (4xx other than 429)", async () => {
    const model = failingModel(httpError(400));
    const { outcome, retries } = await reply(model);
    expect(model.doStreamCalls).toHaveLength(1);
    expect(retries).toEqual([]);
    expect(outcome.error).toMatch(/HTTP 400/);
  });

  it("never retries once something streamed (no duplicated text)", async () => {
    const model = new MockLanguageModelV4({
      doStream: {
        stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
          { type: "text-start", id: "t" },
          { type: "text-delta", id: "t", delta: "partial" },
          { type: "error", error: httpError(500) },
        ]),
      },
    });
    const { outcome, retries } = await reply(model);
    expect(retries).toEqual([]);
    expect(outcome.status).toBe("error");
    expect(outcome.reply.parts).toContainEqual({ type: "text", text: "partial", state: "done" });
  });

  it("stops during the wait when the person presses Stop", async () => {
    const controller = new AbortController();
    const model = failingModel(httpError(429, { "retry-after": "10" }));
    const started = Date.now();
    setTimeout(() => controller.abort(), 30);
    const { outcome, retries } = await reply(model, { abortSignal: controller.signal });
    expect(retries[0]?.delayMs).toBe(10_000);
    expect(outcome.status).toBe("incomplete");
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(model.doStreamCalls).toHaveLength(1);
  });
});

describe("retryDelayMs", () => {
  it("honours retry-after-ms, retry-after seconds and dates, else backs off exponentially, capped at 20 s", () => {
    expect(retryDelayMs(httpError(429, { "retry-after-ms": "250" }), 0, 1000)).toBe(250);
    expect(retryDelayMs(httpError(429, { "retry-after": "3" }), 0, 1000)).toBe(3000);
    expect(retryDelayMs(httpError(429, { "retry-after": "3600" }), 0, 1000)).toBe(20_000);
    const inTwo = new Date(Date.now() + 2000).toUTCString();
    expect(retryDelayMs(httpError(503, { "retry-after": inTwo }), 0, 1000)).toBeGreaterThan(500);
    expect(retryDelayMs(httpError(500), 0, 1000)).toBe(1000);
    expect(retryDelayMs(httpError(500), 2, 1000)).toBe(4000);
  });
});

describe("runReply checkpoints", () => {
  it("saves the streaming reply at most once per interval, never overlapping, and waits for the last save", async () => {
    let clock = 0;
    const saves: string[] = [];
    let active = 0;
    let overlapped = false;
    const deltas = Array.from({ length: 6 }, (_, i) => ({ type: "text-delta" as const, id: "t", delta: `w${i} ` }));
    const model = new MockLanguageModelV4({
      doStream: {
        stream: convertArrayToReadableStream<LanguageModelV4StreamPart>([
          { type: "text-start", id: "t" },
          ...deltas,
          { type: "text-end", id: "t" },
          { type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage },
        ]),
      },
    });
    await runReply({
      model,
      instructions: "S",
      history: [{ role: "user", content: "hi" }],
      replyId: "r1",
      emit: () => {
        clock += 400; // every chunk arrives 400 ms after the previous one
      },
      checkpoint: {
        everyMs: 1000,
        now: () => clock,
        save: async (reply) => {
          overlapped ||= active > 0;
          active++;
          await Promise.resolve();
          const text = reply.parts.find((p) => p.type === "text");
          saves.push(text && "text" in text ? text.text : "");
          active--;
        },
      },
    });
    expect(overlapped).toBe(false);
    expect(saves.length).toBeGreaterThanOrEqual(2);
    expect(saves.length).toBeLessThanOrEqual(4);
    expect(saves[0]).toMatch(/^w0 /);
    expect(saves.at(-1)!.length).toBeGreaterThan(saves[0]!.length);
  });
});
