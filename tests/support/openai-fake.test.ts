// Proves the OpenAI fake speaks the wire format the real `@ai-sdk/openai` chat model and `streamText` understand.
import { createOpenAI } from "@ai-sdk/openai";
import { APICallError, generateText, jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type OpenAIFake, startOpenAIFake } from "./openai-fake.ts";

let fake: OpenAIFake;
const model = () => createOpenAI({ baseURL: fake.url, apiKey: "x" }).chat("fake-model");
const messages = [{ role: "user" as const, content: "Say hi" }];

async function collect(stream: AsyncIterable<{ type: string }>) {
  const parts: { type: string; [key: string]: unknown }[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}
/** Like collect, but keeps the parts seen before the stream itself throws (how transport failures surface). */
async function collectUntilThrow(stream: AsyncIterable<{ type: string }>) {
  const parts: { type: string; [key: string]: unknown }[] = [];
  try {
    for await (const part of stream) parts.push(part);
  } catch (thrown) {
    return { parts, thrown };
  }
  return { parts, thrown: undefined };
}
const quiet = { maxRetries: 0, onError: () => {} };
const textOf = (parts: { type: string; text?: unknown }[]) =>
  parts
    .filter((p) => p.type === "text-delta")
    .map((p) => String(p.text))
    .join("");

beforeAll(async () => {
  fake = await startOpenAIFake();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe("openai fake", () => {
  it("keeps durable-facts calls (x-hintline-purpose: memory) apart: their own queue, else a 404, and out of the cache's view", async () => {
    fake.setDefault({ text: "main" });
    const memory = { "x-hintline-purpose": "memory" };
    await expect(generateText({ model: model(), messages, headers: memory, maxRetries: 0 })).rejects.toThrow(
      /proposes no durable facts/,
    );
    fake.enqueueMemory({ text: '["Prefers tea"]' });
    fake.enqueue({ text: "queued for the chat" });
    expect((await generateText({ model: model(), messages, headers: memory, maxRetries: 0 })).text).toBe(
      '["Prefers tea"]',
    );
    expect((await generateText({ model: model(), messages, maxRetries: 0 })).text).toBe("queued for the chat");
    expect(fake.memoryRequests).toHaveLength(2);
    expect(fake.requests).toHaveLength(1);
    fake.reset();
    expect(fake.memoryRequests).toHaveLength(0);
  });

  it("streams scripted text back through streamText, in several chunks, with scripted usage", async () => {
    fake.enqueue({ text: "The quick  brown fox.\nDone!", usage: { promptTokens: 42, completionTokens: 7 } });
    const result = streamText({ model: model(), instructions: "Be brief.", messages });
    const parts = await collect(result.stream);
    expect(parts.filter((p) => p.type === "text-delta").length).toBeGreaterThan(3);
    expect(textOf(parts)).toBe("The quick  brown fox.\nDone!");
    expect(await result.text).toBe("The quick  brown fox.\nDone!");
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(42);
    expect(usage.outputTokens).toBe(7);
  });

  it("uses the initial default reply and estimates usage when nothing is scripted", async () => {
    const result = streamText({ model: model(), messages, maxRetries: 0 });
    expect(await result.text).toBe("Hello from the fake.");
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(Math.ceil(JSON.stringify(fake.requests[0]?.body.messages).length / 4));
    expect(usage.outputTokens).toBe(Math.ceil("Hello from the fake.".length / 4));
  });

  it("reports cached tokens as OpenAI does: the prefix shared with the last request, in 128-token blocks, from a threshold", async () => {
    const long = "lorem ipsum ".repeat(800); // about 2,400 tokens at four characters a token
    const first: ModelMessage[] = [{ role: "user", content: long }];
    const cachedOf = async (sent: ModelMessage[]) => {
      const result = streamText({ model: model(), messages: sent, ...quiet });
      return (await result.usage).inputTokenDetails.cacheReadTokens;
    };
    expect(await cachedOf(first)).toBe(0);
    const second: ModelMessage[] = [...first, { role: "assistant", content: "ok" }, { role: "user", content: "more" }];
    const cached = (await cachedOf(second))!;
    const sharedChars = JSON.stringify(fake.requests[0]!.body.messages).length - 2; // all but the closing "}]"
    expect(cached % 128).toBe(0);
    expect(cached).toBe(Math.floor(Math.floor(sharedChars / 4) / 128) * 128);
    expect(cached).toBeGreaterThanOrEqual(1024);
    // A changed first message shares almost nothing: below the threshold, nothing is cached.
    expect(await cachedOf([{ role: "user", content: `x${long}` }])).toBe(0);
    // The threshold is configurable, and a scripted figure wins.
    fake.setCacheMinTokens(1_000_000);
    expect(await cachedOf(second)).toBe(0);
    fake.enqueue({ text: "hi", usage: { promptTokens: 10, cachedTokens: 99 } });
    expect(await cachedOf(second)).toBe(99);
  });

  it("records the request the client sent", async () => {
    fake.enqueue({ text: "ok" });
    await streamText({ model: model(), instructions: "Be brief.", messages }).text;
    expect(fake.requests).toHaveLength(1);
    const [req] = fake.requests;
    expect(req?.path).toBe("/v1/chat/completions");
    expect(req?.headers.authorization).toBe("Bearer x");
    expect(req?.body.stream).toBe(true);
    expect(req?.body.stream_options).toEqual({ include_usage: true });
    expect(req?.body.model).toBe("fake-model");
    expect(req?.body.messages).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: "Say hi" },
    ]);
  });

  it("streams tool calls with split arguments that parse into a tool-call part", async () => {
    fake.enqueue({
      kind: "tools",
      text: "Let me check.",
      calls: [
        { id: "call_1", name: "get_weather", arguments: { city: "Oslo", days: 3 } },
        { name: "get_time", arguments: { zone: "Europe/Oslo" } },
      ],
    });
    const schema = (props: Record<string, unknown>) =>
      jsonSchema<Record<string, unknown>>({ type: "object", properties: props });
    const tools = {
      get_weather: tool({
        description: "Weather",
        inputSchema: schema({ city: { type: "string" }, days: { type: "number" } }),
      }),
      get_time: tool({ description: "Time", inputSchema: schema({ zone: { type: "string" } }) }),
    };
    const result = streamText({ model: model(), messages, tools });
    const parts = await collect(result.stream);
    const calls = parts.filter((p) => p.type === "tool-call");
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({ toolCallId: "call_1", toolName: "get_weather", input: { city: "Oslo", days: 3 } });
    expect(calls[1]).toMatchObject({ toolName: "get_time", input: { zone: "Europe/Oslo" } });
    expect(parts.filter((p) => p.type === "tool-input-delta").length).toBeGreaterThanOrEqual(4);
    expect(textOf(parts)).toBe("Let me check.");
    expect(await result.finishReason).toBe("tool-calls");
    expect(fake.requests[0]?.body.tools.map((t: { function: { name: string } }) => t.function.name)).toEqual([
      "get_weather",
      "get_time",
    ]);
  });

  it("surfaces an http-error 500 as an error", async () => {
    fake.enqueue({
      kind: "http-error",
      status: 500,
      body: { error: { message: "Boom upstream", type: "server_error", code: "boom" } },
    });
    const result = streamText({ model: model(), messages, ...quiet });
    const errors = (await collect(result.stream)).filter((p) => p.type === "error");
    expect(errors).toHaveLength(1);
    const error = errors[0]?.error;
    expect(APICallError.isInstance(error)).toBe(true);
    expect((error as APICallError).statusCode).toBe(500);
    expect((error as APICallError).message).toContain("Boom upstream");
    expect(fake.requests).toHaveLength(1);
  });

  it("gives 429 a default OpenAI-style error body", async () => {
    fake.enqueue({ kind: "http-error", status: 429 });
    const res = await fetch(`${fake.url}/chat/completions`, { method: "POST", body: JSON.stringify({ messages }) });
    expect(res.status).toBe(429);
    expect(await res.json()).toMatchObject({ error: { message: expect.any(String), type: "rate_limit_exceeded" } });
  });

  it("surfaces a cut stream as an error after some text", async () => {
    fake.enqueue({ kind: "cut", text: "one two three four five six", afterChunks: 2 });
    const result = streamText({ model: model(), messages, ...quiet });
    // A broken transport is not an "error" part: the stream itself rejects, after the text that did arrive.
    const { parts, thrown } = await collectUntilThrow(result.stream);
    expect(textOf(parts)).toBe("one two ");
    expect(APICallError.isInstance(thrown)).toBe(true);
    expect(String((thrown as Error).cause)).toMatch(/terminated/);
    await expect(result.text).rejects.toThrow();
  });

  it("hangs until the client aborts", async () => {
    fake.enqueue({ kind: "hang" });
    const controller = new AbortController();
    const started = Date.now();
    const result = streamText({ model: model(), messages, ...quiet, abortSignal: controller.signal });
    setTimeout(() => controller.abort(), 200);
    const parts = await collect(result.stream);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(parts.map((p) => p.type)).toContain("abort");
    expect(parts.some((p) => p.type === "text-delta")).toBe(false);
    expect(fake.requests).toHaveLength(1);
  });

  it("answers non-streaming requests, /v1/models and unknown paths", async () => {
    fake.enqueue({ kind: "tools", calls: [{ id: "c1", name: "f", arguments: { a: 1 } }] }, { text: "plain" });
    const post = (body: unknown) =>
      fetch(`${fake.url}/chat/completions`, { method: "POST", body: JSON.stringify(body) });
    const tools = await (await post({ model: "m1", messages })).json();
    expect(tools).toMatchObject({ object: "chat.completion", model: "m1", choices: [{ finish_reason: "tool_calls" }] });
    expect(tools.choices[0].message.tool_calls[0].function).toEqual({ name: "f", arguments: '{"a":1}' });
    const text = await (await post({ model: "m2", messages })).json();
    expect(text.choices[0]).toMatchObject({ message: { role: "assistant", content: "plain" }, finish_reason: "stop" });
    expect(text.usage.total_tokens).toBe(text.usage.prompt_tokens + text.usage.completion_tokens);
    expect(await (await fetch(`${fake.url}/models`)).json()).toEqual({
      object: "list",
      data: [{ id: "fake-model", object: "model", owned_by: "fake" }],
    });
    expect((await fetch(`${fake.url}/nope`)).status).toBe(404);
  });

  it("can be scripted and inspected over the HTTP control API", async () => {
    const origin = new URL(fake.url).origin;
    const control = (path: string, body?: unknown) =>
      fetch(`${origin}/__fake/${path}`, {
        method: "POST",
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    expect((await control("enqueue", [{ text: "first" }, { kind: "text", text: "second" }])).status).toBe(200);
    expect((await control("default", { text: "fallback" })).status).toBe(200);
    expect((await control("enqueue", [{ kind: "bogus" }])).status).toBe(400);
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push(await streamText({ model: model(), messages }).text);
    expect(texts).toEqual(["first", "second", "fallback"]);
    const recorded = await (await fetch(`${origin}/__fake/requests`)).json();
    expect(recorded).toHaveLength(3);
    expect(recorded[0]).toMatchObject({ path: "/v1/chat/completions", body: { stream: true, messages } });
    expect((await control("reset")).status).toBe(200);
    expect(fake.requests).toHaveLength(0);
    expect(await streamText({ model: model(), messages }).text).toBe("Hello from the fake.");
  });

  it("uses a function default and paces chunks with chunkDelayMs", async () => {
    fake.setDefault((req) => ({ text: `echo ${req.body.messages.at(-1).content}`, chunkDelayMs: 30 }));
    const started = Date.now();
    expect(await streamText({ model: model(), messages }).text).toBe("echo Say hi");
    expect(Date.now() - started).toBeGreaterThanOrEqual(50);
  });

  it("streams a long run without a space, and plays providers that lie about the reply", async () => {
    fake.enqueue({ kind: "run", length: 50_000, chunkChars: 1000 });
    const run = streamText({ model: model(), messages, ...quiet });
    expect(await run.text).toBe("=".repeat(50_000));
    expect(await run.finishReason).toBe("stop");
    // An HTML page, a JSON completion and a stream without a finish reason all end "interrupted" in the AI SDK.
    for (const reply of [
      { kind: "html" },
      { kind: "json-to-stream", text: "Hi" },
      { kind: "no-finish", text: "Half a reply" },
    ] as const) {
      fake.enqueue(reply);
      const result = streamText({ model: model(), messages, ...quiet });
      const parts = await collect(result.stream);
      expect(parts.some((p) => p.type === "error")).toBe(false);
      expect(await result.finishReason).toBe("interrupted");
    }
    expect(
      textOf(
        await collect(streamText({ model: model(), messages: [{ role: "user", content: "x" }], ...quiet }).stream),
      ),
    ).toBe("Hello from the fake.");
  });

  it("sends usage figures as scripted, numbers or not", async () => {
    fake.enqueue({ text: "Fine.", usage: { promptTokens: "12", completionTokens: -3 } });
    const parts = await collect(streamText({ model: model(), messages, ...quiet }).stream);
    // The AI SDK's chunk schema refuses the usage chunk: a good reply surfaces as an error.
    expect(parts.some((p) => p.type === "error")).toBe(true);
  });
});
