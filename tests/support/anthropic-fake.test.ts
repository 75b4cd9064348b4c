// Proves the Anthropic fake speaks the wire format the real `@ai-sdk/anthropic` and `streamText` understand, and that
// its prompt cache behaves as Anthropic documents: breakpoints, at most four, a 20-block lookback, a minimum size.
import { createAnthropic } from "@ai-sdk/anthropic";
import { APICallError, generateText, jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AnthropicFake, startAnthropicFake } from "./anthropic-fake.ts";
import type { FakeErrorName } from "./fake-core.ts";

// The fake's model ids are unknown to the SDK's catalogue: its "compatibility mode" warnings are expected here.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

let fake: AnthropicFake;
const model = (apiKey = "k") => createAnthropic({ baseURL: fake.url, apiKey })("claude-fake");
const messages = [{ role: "user" as const, content: "Say hi" }];
const quiet = { maxRetries: 0, onError: () => {} };
const ephemeral = { anthropic: { cacheControl: { type: "ephemeral" } } } as const;
type Part = { type: string; [key: string]: unknown };
/** A long system prompt (about 1,500 tokens) so the first breakpoint is cacheable on its own. */
const SYSTEM = `You are a careful assistant. ${"Remember the rules of the house. ".repeat(180)}`;
const turn = (i: number) => `Message ${i}: ${"and some more words about the topic at hand ".repeat(10)}`;

async function collect(stream: AsyncIterable<{ type: string }>) {
  const parts: Part[] = [];
  for await (const part of stream) parts.push(part);
  return parts;
}
const textOf = (parts: Part[]) =>
  parts
    .filter((p) => p.type === "text-delta")
    .map((p) => String(p.text))
    .join("");
const errorOf = async (result: { stream: AsyncIterable<{ type: string }> }) =>
  (await collect(result.stream)).find((p) => p.type === "error")?.error;

beforeAll(async () => {
  fake = await startAnthropicFake({ apiKey: "k" });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe("anthropic fake: wire format", () => {
  it("streams scripted text in several chunks with scripted usage, and records the request", async () => {
    fake.enqueue({ text: "The quick  brown fox.\nDone!", usage: { promptTokens: 42, completionTokens: 7 } });
    const result = streamText({ model: model(), instructions: "Be brief.", messages, ...quiet });
    const parts = await collect(result.stream);
    expect(parts.filter((p) => p.type === "text-delta").length).toBeGreaterThan(3);
    expect(textOf(parts)).toBe("The quick  brown fox.\nDone!");
    expect(await result.finishReason).toBe("stop");
    const usage = await result.usage;
    expect(usage).toMatchObject({ inputTokens: 42, outputTokens: 7 });
    const [req] = fake.requests;
    expect(req?.path).toBe("/v1/messages");
    expect(req?.headers["x-api-key"]).toBe("k");
    expect(req?.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req?.body).toMatchObject({
      model: "claude-fake",
      stream: true,
      system: [{ type: "text", text: "Be brief." }],
    });
    expect(req?.body.messages).toEqual([{ role: "user", content: [{ type: "text", text: "Say hi" }] }]);
  });

  it("estimates usage when nothing is scripted, and answers non-streaming calls with a JSON message", async () => {
    const result = await generateText({ model: model(), messages, maxRetries: 0 });
    expect(result.text).toBe("Hello from the Anthropic fake.");
    expect(fake.requests[0]?.body.stream).toBeUndefined();
    const blockJson = JSON.stringify({ type: "text", text: "Say hi" });
    expect(result.usage.inputTokens).toBe(Math.ceil(blockJson.length / 4));
    expect(result.usage.outputTokens).toBe(Math.ceil("Hello from the Anthropic fake.".length / 4));
    expect(result.finishReason).toBe("stop");
  });

  it("streams tool_use blocks with input_json_delta pieces, and takes the tool results back", async () => {
    fake.enqueue(
      {
        kind: "tools",
        text: "Let me check.",
        calls: [
          { id: "toolu_1", name: "get_weather", arguments: { city: "Oslo", days: 3 } },
          { name: "get_time", arguments: { zone: "Europe/Oslo" } },
        ],
      },
      { text: "Sunny, and it is noon." },
    );
    const schema = (props: Record<string, unknown>) =>
      jsonSchema<Record<string, unknown>>({ type: "object", properties: props });
    const tools = {
      get_weather: tool({
        description: "Weather",
        inputSchema: schema({ city: { type: "string" } }),
        execute: async () => ({ sky: "sunny" }),
      }),
      get_time: tool({
        description: "Time",
        inputSchema: schema({ zone: { type: "string" } }),
        execute: async () => "12:00",
      }),
    };
    const first = streamText({ model: model(), messages, tools, ...quiet });
    const parts = await collect(first.stream);
    const calls = parts.filter((p) => p.type === "tool-call");
    expect(calls).toHaveLength(2);
    expect(calls[0]).toMatchObject({
      toolCallId: "toolu_1",
      toolName: "get_weather",
      input: { city: "Oslo", days: 3 },
    });
    expect(calls[1]).toMatchObject({
      toolCallId: expect.stringMatching(/^toolu_fake_\d+_1$/),
      toolName: "get_time",
      input: { zone: "Europe/Oslo" },
    });
    expect(parts.filter((p) => p.type === "tool-input-delta").length).toBeGreaterThanOrEqual(4);
    expect(textOf(parts)).toBe("Let me check.");
    expect(await first.finishReason).toBe("tool-calls");
    expect(fake.requests[0]?.body.tools.map((t: { name: string }) => t.name)).toEqual(["get_weather", "get_time"]);
    // The round trip: the results go back as tool_result blocks and the model answers.
    const second = streamText({
      model: model(),
      messages: [...messages, ...(await first.response).messages],
      tools,
      ...quiet,
    });
    expect(await second.text).toBe("Sunny, and it is noon.");
    const sent = fake.requests[1]?.body.messages;
    expect(sent.map((m: { role: string }) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(sent[1].content.map((b: { type: string }) => b.type)).toEqual(["text", "tool_use", "tool_use"]);
    expect(sent[2].content[0]).toMatchObject({ type: "tool_result", tool_use_id: "toolu_1" });
    expect(sent[2].content[1]).toMatchObject({ type: "tool_result", tool_use_id: calls[1]?.toolCallId });
  });

  const expected: [FakeErrorName, number, string][] = [
    ["auth", 401, "authentication_error"],
    ["unknown-model", 404, "not_found_error"],
    ["rate-limit", 429, "rate_limit_error"],
    ["overloaded", 529, "overloaded_error"],
    ["too-long", 400, "invalid_request_error"],
    ["server", 500, "api_error"],
  ];
  it.each(expected)(
    "sends a scripted %s refusal as HTTP %i %s, an APICallError in the SDK",
    async (name, status, type) => {
      fake.enqueue({ kind: "error", error: name });
      const error = await errorOf(streamText({ model: model(), messages, ...quiet }));
      expect(APICallError.isInstance(error)).toBe(true);
      const e = error as APICallError;
      expect(e.statusCode).toBe(status);
      expect(JSON.parse(e.responseBody ?? "")).toMatchObject({ type: "error", error: { type } });
      expect(e.isRetryable).toBe(status === 429 || status >= 500);
    },
  );

  it("refuses a wrong key, an unknown model and a prompt longer than the window on its own", async () => {
    const wrongKey = (await errorOf(streamText({ model: model("wrong"), messages, ...quiet }))) as APICallError;
    expect([wrongKey.statusCode, wrongKey.message]).toEqual([401, "invalid x-api-key"]);
    fake.setModels(["claude-other"]);
    const unknown = (await errorOf(streamText({ model: model(), messages, ...quiet }))) as APICallError;
    expect([unknown.statusCode, unknown.message]).toEqual([404, "model: claude-fake"]);
    fake.setModels(undefined);
    fake.setContextWindow(100);
    const long = (await errorOf(
      streamText({ model: model(), messages: [{ role: "user", content: "x".repeat(1000) }], ...quiet }),
    )) as APICallError;
    expect(long.statusCode).toBe(400);
    expect(long.message).toMatch(/^prompt is too long: \d+ tokens > 100 maximum$/);
    expect(fake.requests).toHaveLength(3); // refused requests are recorded too
    expect(await streamText({ model: model(), messages, ...quiet }).text).toBe("Hello from the Anthropic fake.");
  });

  it("sends an error event mid-stream, cuts a stream, and hangs until the client aborts", async () => {
    fake.enqueue({ kind: "stream-error", text: "one two three four", afterChunks: 2 });
    const parts = await collect(streamText({ model: model(), messages, ...quiet }).stream);
    expect(textOf(parts)).toBe("one two ");
    // The AI SDK turns Anthropic's error event into a StreamProviderError that carries the status Anthropic would use.
    const streamError = parts.find((p) => p.type === "error")?.error as Error & { statusCode?: number; type?: string };
    expect(streamError.name).toBe("AI_StreamProviderError");
    expect(streamError).toMatchObject({
      message: "Overloaded",
      type: "overloaded_error",
      statusCode: 529,
      isRetryable: true,
    });
    fake.enqueue({ kind: "cut", text: "one two three", afterChunks: 1 });
    const cut = streamText({ model: model(), messages, ...quiet });
    await expect(cut.text).rejects.toThrow();
    fake.enqueue({ kind: "no-finish", text: "Half a reply" });
    const half = streamText({ model: model(), messages, ...quiet });
    expect(await half.text).toBe("Half a reply");
    expect(await half.finishReason).toBe("interrupted");
    fake.enqueue({ kind: "hang" });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const hung = await collect(
      streamText({ model: model(), messages, ...quiet, abortSignal: controller.signal }).stream,
    );
    expect(hung.map((p) => p.type)).toContain("abort");
  });

  it("keeps Hintline's title requests apart, out of the cache, answered only when scripted", async () => {
    const title = () =>
      streamText({
        model: model(),
        system: { role: "system", content: SYSTEM, providerOptions: ephemeral },
        messages,
        headers: { "x-hintline-purpose": "title" },
        ...quiet,
      });
    expect(((await errorOf(title())) as APICallError).statusCode).toBe(404);
    fake.enqueueTitle({ text: "A title" });
    expect(await title().text).toBe("A title");
    expect(fake.titleRequests).toHaveLength(2);
    expect(fake.requests).toHaveLength(0);
    // Neither title request wrote the system prompt's prefix: the first chat request reads nothing.
    await streamText({
      model: model(),
      system: { role: "system", content: SYSTEM, providerOptions: ephemeral },
      messages,
      ...quiet,
    }).text;
    expect(fake.requests[0]?.cache).toMatchObject({ readTokens: 0, breakpoints: ["system.0"] });
    expect(fake.requests[0]?.cache?.writeTokens).toBeGreaterThan(1024);
  });

  it("can be scripted over the HTTP control API and lists its models", async () => {
    const origin = new URL(fake.url).origin;
    const control = (path: string, body: unknown) =>
      fetch(`${origin}/__fake/${path}`, { method: "POST", body: JSON.stringify(body) });
    expect((await control("enqueue", [{ text: "first" }])).status).toBe(200);
    expect((await control("enqueue", [{ kind: "bogus" }])).status).toBe(400);
    expect(await streamText({ model: model(), messages, ...quiet }).text).toBe("first");
    expect(await (await fetch(`${origin}/__fake/requests`)).json()).toHaveLength(1);
    expect(await (await fetch(`${fake.url}/models`)).json()).toMatchObject({
      data: [{ type: "model", id: "claude-fake" }],
      has_more: false,
    });
  });
});

/** Calls with a breakpoint on the system message and on the newest message, as issue 28 places them. */
async function call(history: ModelMessage[]) {
  const marked: ModelMessage[] = history.map((m, i) =>
    i === history.length - 1 ? { ...m, providerOptions: ephemeral } : m,
  );
  const result = streamText({
    model: model(),
    system: { role: "system", content: SYSTEM, providerOptions: ephemeral },
    messages: marked,
    ...quiet,
  });
  const text = await result.text;
  return { text, usage: await result.usage, metadata: await result.providerMetadata, warnings: await result.warnings };
}

describe("anthropic fake: prompt cache", () => {
  it("over 10 calls of a growing conversation reads the previous call's prefix, so the cached share grows", async () => {
    fake.setDefault((req) => ({ text: `Reply to ${req.body.messages.length} messages.` }));
    const history: ModelMessage[] = [];
    const shares: number[] = [];
    for (let i = 1; i <= 10; i++) {
      history.push({ role: "user", content: turn(i) });
      const { text, usage, metadata } = await call(history);
      history.push({ role: "assistant", content: text });
      const req = fake.requests.at(-1);
      expect(req?.cache?.breakpoints).toEqual(["system.0", `messages.${2 * i - 2}.content.0`]);
      const read = usage.inputTokenDetails.cacheReadTokens ?? 0;
      const written = usage.inputTokenDetails.cacheWriteTokens ?? 0;
      expect(read).toBe(req?.cache?.readTokens);
      expect(written).toBe(req?.cache?.writeTokens);
      expect(usage.inputTokens).toBe(read + written + (usage.inputTokenDetails.noCacheTokens ?? 0));
      // The raw Anthropic figures ride along in providerMetadata.anthropic.usage.
      expect(metadata?.anthropic?.usage).toMatchObject({
        cache_read_input_tokens: read,
        cache_creation_input_tokens: written,
      });
      if (i === 1) expect(read).toBe(0);
      else expect(written).toBeGreaterThan(0); // the new turn's tail is written for the next call
      shares.push(read / (usage.inputTokens ?? 1));
    }
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThan(shares[i - 1] as number);
    expect(shares.at(-1)).toBeGreaterThan(0.9);
  });

  it("reads exactly the prefix written at the earlier breakpoint; a change early in the prefix misses", async () => {
    const history: ModelMessage[] = [{ role: "user", content: turn(1) }];
    const first = await call(history);
    expect(first.usage.inputTokenDetails.cacheWriteTokens).toBe(fake.requests[0]?.cache?.writeTokens);
    const firstTotal = first.usage.inputTokens as number;
    history.push({ role: "assistant", content: first.text }, { role: "user", content: turn(2) });
    const second = await call(history);
    expect(second.usage.inputTokenDetails.cacheReadTokens).toBe(firstTotal); // everything the first call sent
    // The same conversation with its first message changed shares only the system prompt.
    const changed: ModelMessage[] = [{ role: "user", content: `${turn(1)}!` }, ...history.slice(1)];
    const third = await call(changed);
    const systemTokens = Math.ceil(JSON.stringify({ type: "text", text: SYSTEM }).length / 4);
    expect(third.usage.inputTokenDetails.cacheReadTokens).toBe(systemTokens);
    // A different system prompt shares nothing.
    const other = streamText({
      model: model(),
      system: { role: "system", content: `${SYSTEM}.`, providerOptions: ephemeral },
      messages: changed,
      ...quiet,
    });
    expect((await other.usage).inputTokenDetails.cacheReadTokens).toBe(0);
  });

  it("writes and reads nothing below the minimum size, and nothing without breakpoints", async () => {
    fake.setCacheMinTokens(1_000_000);
    const history: ModelMessage[] = [{ role: "user", content: turn(1) }];
    expect((await call(history)).usage.inputTokenDetails.cacheWriteTokens).toBe(0);
    expect((await call(history)).usage.inputTokenDetails.cacheReadTokens).toBe(0);
    fake.setCacheMinTokens(1024);
    const plain = async () =>
      (await streamText({ model: model(), system: SYSTEM, messages: history, ...quiet }).usage).inputTokenDetails;
    expect(await plain()).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
    expect(await plain()).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it("looks back at most 20 blocks from a breakpoint", async () => {
    const blocks = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ type: "text" as const, text: `block ${i} ${"x".repeat(400)}` }));
    const send = (content: { type: "text"; text: string }[]) =>
      streamText({ model: model(), messages: [{ role: "user", content, providerOptions: ephemeral }], ...quiet }).usage;
    const base = blocks(15);
    expect((await send(base)).inputTokenDetails.cacheWriteTokens).toBeGreaterThan(1024); // writes the prefix ending at block 15
    expect((await send(blocks(34))).inputTokenDetails.cacheReadTokens).toBe(fake.requests[0]?.cache?.writeTokens); // 20 back reaches it
    fake.reset();
    await send(base);
    expect((await send(blocks(35))).inputTokenDetails.cacheReadTokens).toBe(0); // 21 back does not
  });

  it("when a turn adds more than 20 blocks, only the previous call's breakpoint, kept, lets the next call read", async () => {
    const parts = (turn: number, n: number) =>
      Array.from({ length: n }, (_, i) => ({
        type: "text" as const,
        text: `turn ${turn} part ${i} ${"y".repeat(500)}`,
      }));
    const first: ModelMessage = { role: "user", content: parts(1, 10) };
    const reply: ModelMessage = { role: "assistant", content: parts(2, 12) };
    const next: ModelMessage = { role: "user", content: parts(3, 12) };
    const usage = (sent: ModelMessage[]) => streamText({ model: model(), messages: sent, ...quiet }).usage;
    expect(
      (await usage([{ ...first, providerOptions: ephemeral }])).inputTokenDetails.cacheWriteTokens,
    ).toBeGreaterThan(1024);
    // Only the newest message marked: 24 blocks back to the written prefix, beyond the lookback.
    expect(
      (await usage([first, reply, { ...next, providerOptions: ephemeral }])).inputTokenDetails.cacheReadTokens,
    ).toBe(0);
    fake.reset();
    await usage([{ ...first, providerOptions: ephemeral }]);
    const kept = await usage([
      { ...first, providerOptions: ephemeral },
      reply,
      { ...next, providerOptions: ephemeral },
    ]);
    expect(kept.inputTokenDetails.cacheReadTokens).toBe(fake.requests[0]?.cache?.writeTokens);
    expect(fake.requests[1]?.cache?.breakpoints).toEqual(["messages.0.content.9", "messages.2.content.11"]);
  });

  it("refuses five breakpoints with a 400 as Anthropic does; the SDK itself drops the fifth with a warning", async () => {
    const marked = { type: "text", text: "x", cache_control: { type: "ephemeral" } };
    const body = {
      model: "claude-fake",
      max_tokens: 10,
      messages: [{ role: "user", content: [marked, marked, marked, marked, marked] }],
    };
    const headers = { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" };
    const res = await fetch(`${fake.url}/messages`, { method: "POST", headers, body: JSON.stringify(body) });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      type: "error",
      error: {
        type: "invalid_request_error",
        message: "A maximum of 4 blocks with cache_control may be provided. Found 5.",
      },
    });
    const bad = { ...body, messages: [{ role: "user", content: [{ ...marked, cache_control: { type: "forever" } }] }] };
    const badRes = await fetch(`${fake.url}/messages`, { method: "POST", headers, body: JSON.stringify(bad) });
    expect(badRes.status).toBe(400);
    const empty = { ...body, messages: [{ role: "user", content: [{ ...marked, text: "" }] }] };
    const emptyRes = await fetch(`${fake.url}/messages`, { method: "POST", headers, body: JSON.stringify(empty) });
    expect(((await emptyRes.json()) as { error: { message: string } }).error.message).toBe(
      "messages.0.content.0.text: cache_control cannot be set for empty text blocks",
    );
    // A 1-hour mark after a 5-minute one is refused (longer TTLs first); the other way round is served.
    const hour = { ...marked, cache_control: { type: "ephemeral", ttl: "1h" } };
    const mixed = (content: unknown[]) => ({ ...body, messages: [{ role: "user", content }] });
    const send = (b: unknown) => fetch(`${fake.url}/messages`, { method: "POST", headers, body: JSON.stringify(b) });
    const wrongOrder = await send(mixed([marked, hour]));
    expect(wrongOrder.status).toBe(400);
    expect(((await wrongOrder.json()) as { error: { message: string } }).error.message).toContain(
      "a 1h cache_control block cannot come after a 5m one",
    );
    expect((await send(mixed([hour, marked]))).status).toBe(200);
    // Through the SDK: five markers become four on the wire, and a warning.
    const five: ModelMessage[] = [1, 2, 3, 4, 5].map((i) => ({
      role: i % 2 ? "user" : "assistant",
      content: turn(i),
      providerOptions: ephemeral,
    }));
    const result = streamText({ model: model(), messages: five, ...quiet });
    await result.text;
    expect(fake.requests.at(-1)?.cache?.breakpoints).toHaveLength(4);
    expect(JSON.stringify(await result.warnings)).toContain("breakpoint limit");
  });
});
