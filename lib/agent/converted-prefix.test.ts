import { createOpenAI } from "@ai-sdk/openai";
import type { LanguageModelV4CallOptions } from "@ai-sdk/provider";
import { type LanguageModel, type ModelMessage, streamText } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { everyShapeHistory } from "../../tests/support/model-history.ts";
import { type OpenAIFake, startOpenAIFake } from "../../tests/support/openai-fake.ts";
import { warmConvertedPrefix, withConvertedPrefix } from "./converted-prefix.ts";


async function drain(model: LanguageModel, messages: ModelMessage[], viaPrefix: boolean): Promise<string | undefined> {
  const call = viaPrefix ? await withConvertedPrefix({ model, messages }) : { model, messages };
  const result = streamText({ model: call.model, instructions: "SYSTEM", messages: call.messages, maxRetries: 0, onError: () => {} });
  let error: string | undefined;
  for await (const part of result.stream) if (part.type === "error") error = String((part.error as Error).name);
  return error;
}

function recording() {
  const prompts: LanguageModelV4CallOptions["prompt"][] = [];
  const model = new MockLanguageModelV4({
    doStream: async (options) => {
      prompts.push(options.prompt);
      return {
        stream: new ReadableStream({
          start(c) {
            c.enqueue({ type: "finish", finishReason: { unified: "stop", raw: "stop" }, usage: { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } } });
            c.close();
          },
        }),
      };
    },
  });
  return { model, prompts };
}

describe("withConvertedPrefix", () => {
  let fake: OpenAIFake;
  beforeAll(async () => {
    fake = await startOpenAIFake();
  });
  afterAll(() => fake.close());

  it("sends an OpenAI-compatible server the same request, key for key, as streamText alone", async () => {
    const model = createOpenAI({ apiKey: "k", baseURL: fake.url }).chat("fake-model");
    const messages = [...everyShapeHistory(), { role: "user" as const, content: "Next?" }];
    fake.reset();
    expect(await drain(model, messages, false)).toBeUndefined();
    expect(await drain(model, messages, true)).toBeUndefined();
    expect(await drain(model, messages, true)).toBeUndefined(); // from the cache
    expect(fake.requests).toHaveLength(3);
    const [plain, converted, cached] = fake.requests.map((r) => JSON.stringify(r.body));
    expect(plain).toContain('"image_url"');
    expect(converted).toBe(plain);
    expect(cached).toBe(plain);
  });

  it("hands streamText only the last message and its tool results", async () => {
    const model = recording().model;
    const messages = everyShapeHistory().slice(0, 4);
    const call = await withConvertedPrefix({ model, messages });
    expect(call.messages).toEqual(messages.slice(1));
    expect(call.model).not.toBe(model);
    const single = await withConvertedPrefix({ model, messages: messages.slice(0, 1) });
    expect(single.model).toBe(model);
    const byName = await withConvertedPrefix({ model: "openai/gpt-5", messages });
    expect(byName).toEqual({ model: "openai/gpt-5", messages });
  });

  it("converts a message once, until one whose conversion depends on the model", async () => {
    const { model, prompts } = recording();
    const messages = everyShapeHistory();
    await drain(model, [...messages, { role: "user", content: "One." }], true);
    await drain(model, [...messages, { role: "user", content: "One." }, { role: "assistant", content: "Two." }, { role: "user", content: "Three." }], true);
    const [first, second] = prompts;
    expect(second!.slice(0, first!.length - 1)).toEqual(first!.slice(0, -1));
    const picture = first!.findIndex((m) => m.role === "user" && m.content.some((p) => p.type === "file"));
    expect(picture).toBeGreaterThan(1);
    for (let i = 1; i < first!.length - 1; i++) {
      if (i < picture) expect(second![i]).toBe(first![i]);
      else expect(second![i]).not.toBe(first![i]);
    }
  });

  it("keeps what a changed history still shares, and converts the rest again", async () => {
    const { model, prompts } = recording();
    const messages = everyShapeHistory().slice(0, 5);
    await drain(model, [...messages, { role: "user", content: "Go." }], true);
    // The same conversation with its last reply replaced (a retry), then with a tool result added to a kept group.
    const retried = [...messages.slice(0, 4), { role: "assistant" as const, content: "Other." }, { role: "user" as const, content: "Go." }];
    await drain(model, retried, true);
    const plain = recording();
    await drain(plain.model, retried, false);
    expect(prompts[1]).toEqual(plain.prompts[0]);
    expect(prompts[1]![1]).toBe(prompts[0]![1]);
    const extraResult: ModelMessage = { role: "tool", content: [{ type: "tool-result", toolCallId: "c2", toolName: "TaskCreate", output: { type: "text", value: "again" } }] };
    const extended = [...messages.slice(0, 4), extraResult, { role: "user" as const, content: "Go." }];
    await drain(model, extended, true);
    await drain(plain.model, extended, false);
    expect(prompts[2]).toEqual(plain.prompts[1]);
    expect(prompts[2]![2]).not.toBe(prompts[0]![2]);
  });

  it("is warmed ahead of a reply", async () => {
    const { model, prompts } = recording();
    const messages = everyShapeHistory().slice(0, 5);
    expect(await warmConvertedPrefix(model, messages)).toBe(5);
    expect(await warmConvertedPrefix(model, messages)).toBe(0);
    expect(await warmConvertedPrefix(model, [...messages, { role: "user", content: "More." }])).toBe(1);
    const { prompts: plainPrompts, model: plain } = recording();
    await drain(plain, [...messages, { role: "user", content: "Go." }], false);
    await drain(model, [...messages, { role: "user", content: "Go." }], true);
    expect(prompts[0]).toEqual(plainPrompts[0]);
  });

  it("leaves the SDK to convert, and to refuse, what it cannot convert group by group", async () => {
    // A tool call answered after a later assistant message: valid as a whole, not as separate groups.
    const late: ModelMessage[] = [
      { role: "user", content: "Go." },
      { role: "assistant", content: [{ type: "tool-call", toolCallId: "c9", toolName: "TaskList", input: {} }] },
      { role: "assistant", content: "Listing." },
      { role: "tool", content: [{ type: "tool-result", toolCallId: "c9", toolName: "TaskList", output: { type: "text", value: "none" } }] },
      { role: "user", content: "And?" },
    ];
    const a = recording();
    const b = recording();
    expect(await drain(a.model, late, false)).toBeUndefined();
    expect(await drain(b.model, late, true)).toBeUndefined();
    expect(b.prompts[0]).toEqual(a.prompts[0]);
    // An unanswered tool call is refused the same way with or without the prefix.
    const unanswered = [late[0]!, late[1]!, late[4]!];
    expect(await drain(recording().model, unanswered, false)).toBe("AI_MissingToolResultsError");
    expect(await drain(recording().model, unanswered, true)).toBe("AI_MissingToolResultsError");
  });
});
