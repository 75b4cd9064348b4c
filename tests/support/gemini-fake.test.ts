// Proves the Gemini fake speaks the wire format the real `@ai-sdk/google` and `streamText` understand, and that its
// implicit cache reports the prefix a request shares with an earlier one, from a minimum size.
import { createGoogleGenerativeAI } from "@ai-sdk/google";
import { APICallError, generateText, jsonSchema, type ModelMessage, streamText, tool } from "ai";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { FakeErrorName } from "./fake-core.ts";
import { type GeminiFake, startGeminiFake } from "./gemini-fake.ts";

let fake: GeminiFake;
const model = (apiKey = "k", id = "gemini-fake") => createGoogleGenerativeAI({ baseURL: fake.url, apiKey })(id);
const messages = [{ role: "user" as const, content: "Say hi" }];
const quiet = { maxRetries: 0, onError: () => {} };
type Part = { type: string; [key: string]: unknown };

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
  fake = await startGeminiFake({ apiKey: "k" });
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

describe("gemini fake: wire format", () => {
  it("streams scripted text in several chunks with scripted usage, and records the request", async () => {
    fake.enqueue({ text: "The quick  brown fox.\nDone!", usage: { promptTokens: 42, completionTokens: 7 } });
    const result = streamText({ model: model(), instructions: "Be brief.", messages, ...quiet });
    const parts = await collect(result.stream);
    expect(parts.filter((p) => p.type === "text-delta").length).toBeGreaterThan(3);
    expect(textOf(parts)).toBe("The quick  brown fox.\nDone!");
    expect(await result.finishReason).toBe("stop");
    expect(await result.usage).toMatchObject({ inputTokens: 42, outputTokens: 7 });
    const [req] = fake.requests;
    expect(req?.path).toBe("/v1beta/models/gemini-fake:streamGenerateContent");
    expect(req?.headers["x-goog-api-key"]).toBe("k");
    expect(req?.body.systemInstruction).toEqual({ parts: [{ text: "Be brief." }] });
    expect(req?.body.contents).toEqual([{ role: "user", parts: [{ text: "Say hi" }] }]);
  });

  it("estimates usage when nothing is scripted, and answers generateContent with JSON", async () => {
    const result = await generateText({ model: model(), messages, maxRetries: 0 });
    expect(result.text).toBe("Hello from the Gemini fake.");
    expect(fake.requests[0]?.path).toBe("/v1beta/models/gemini-fake:generateContent");
    expect(result.usage.inputTokens).toBe(Math.ceil(JSON.stringify({ text: "Say hi" }).length / 4));
    expect(result.usage.outputTokens).toBe(Math.ceil("Hello from the Gemini fake.".length / 4));
    expect(result.finishReason).toBe("stop");
  });

  it("streams functionCall parts, and takes the function responses back", async () => {
    fake.enqueue(
      {
        kind: "tools",
        text: "Let me check.",
        calls: [
          { name: "get_weather", arguments: { city: "Oslo", days: 3 } },
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
    expect(calls[0]).toMatchObject({ toolName: "get_weather", input: { city: "Oslo", days: 3 } });
    expect(calls[1]).toMatchObject({ toolName: "get_time", input: { zone: "Europe/Oslo" } });
    expect(textOf(parts)).toBe("Let me check.");
    expect(await first.finishReason).toBe("tool-calls");
    const declared = fake.requests[0]?.body.tools[0].functionDeclarations.map((d: { name: string }) => d.name);
    expect(declared).toEqual(["get_weather", "get_time"]);
    const second = streamText({
      model: model(),
      messages: [...messages, ...(await first.response).messages],
      tools,
      ...quiet,
    });
    expect(await second.text).toBe("Sunny, and it is noon.");
    const sent = fake.requests[1]?.body.contents;
    expect(sent.map((c: { role: string }) => c.role)).toEqual(["user", "model", "user"]);
    expect(
      sent[1].parts
        .filter((p: object) => "functionCall" in p)
        .map((p: { functionCall: { name: string } }) => p.functionCall.name),
    ).toEqual(["get_weather", "get_time"]);
    // The first call's thought signature goes back as sent (not the SDK's "skip" sentinel).
    const signature =
      (calls[0]?.providerMetadata as { google?: { thoughtSignature?: string } })?.google?.thoughtSignature ?? "";
    expect(Buffer.from(signature, "base64").toString()).toMatch(/^fake-thought-signature-\d+$/);
    expect(sent[1].parts.find((p: object) => "functionCall" in p).thoughtSignature).toBe(signature);
    expect(sent[2].parts.map((p: { functionResponse: { name: string } }) => p.functionResponse.name)).toEqual([
      "get_weather",
      "get_time",
    ]);
  });

  const expected: [FakeErrorName, number, string][] = [
    ["invalid", 400, "INVALID_ARGUMENT"],
    ["auth", 403, "PERMISSION_DENIED"],
    ["unknown-model", 404, "NOT_FOUND"],
    ["rate-limit", 429, "RESOURCE_EXHAUSTED"],
    ["overloaded", 503, "UNAVAILABLE"],
    ["too-long", 400, "INVALID_ARGUMENT"],
    ["server", 500, "INTERNAL"],
  ];
  it.each(expected)(
    "sends a scripted %s refusal as HTTP %i %s, an APICallError in the SDK",
    async (name, status, statusName) => {
      fake.enqueue({ kind: "error", error: name });
      const error = await errorOf(streamText({ model: model(), messages, ...quiet }));
      expect(APICallError.isInstance(error)).toBe(true);
      const e = error as APICallError;
      expect(e.statusCode).toBe(status);
      expect(JSON.parse(e.responseBody ?? "")).toMatchObject({ error: { code: status, status: statusName } });
      expect(e.isRetryable).toBe(status === 429 || status >= 500);
    },
  );

  it("refuses a missing or wrong key, an unknown model and a prompt longer than the window on its own", async () => {
    const noKey = await fetch(`${fake.url}/models/gemini-fake:generateContent`, {
      method: "POST",
      body: JSON.stringify({ contents: [] }),
    });
    expect(noKey.status).toBe(403);
    expect(await noKey.json()).toMatchObject({ error: { code: 403, status: "PERMISSION_DENIED" } });
    // Google answers a wrong key with 400 INVALID_ARGUMENT and the reason API_KEY_INVALID.
    const wrongKey = (await errorOf(streamText({ model: model("wrong"), messages, ...quiet }))) as APICallError;
    expect([wrongKey.statusCode, wrongKey.message]).toEqual([400, "API key not valid. Please pass a valid API key."]);
    expect(JSON.parse(wrongKey.responseBody ?? "").error.details[0].reason).toBe("API_KEY_INVALID");
    fake.setModels(["gemini-other"]);
    const unknown = (await errorOf(streamText({ model: model(), messages, ...quiet }))) as APICallError;
    expect(unknown.statusCode).toBe(404);
    expect(unknown.message).toMatch(/^models\/gemini-fake is not found/);
    fake.setModels(undefined);
    fake.setContextWindow(100);
    const long = (await errorOf(
      streamText({ model: model(), messages: [{ role: "user", content: "x".repeat(1000) }], ...quiet }),
    )) as APICallError;
    expect(long.statusCode).toBe(400);
    expect(long.message).toMatch(
      /^The input token count \(\d+\) exceeds the maximum number of tokens allowed \(100\)\.$/,
    );
    expect(fake.requests).toHaveLength(4);
  });

  it("sends an error chunk mid-stream, cuts a stream, and hangs until the client aborts", async () => {
    fake.enqueue({ kind: "stream-error", text: "one two three four", afterChunks: 2 });
    const parts = await collect(streamText({ model: model(), messages, ...quiet }).stream);
    expect(textOf(parts)).toBe("one two ");
    expect(JSON.stringify(parts.find((p) => p.type === "error"))).toContain("UNAVAILABLE");
    fake.enqueue({ kind: "cut", text: "one two three", afterChunks: 1 });
    await expect(streamText({ model: model(), messages, ...quiet }).text).rejects.toThrow();
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

  it("can be scripted over the HTTP control API and lists its models", async () => {
    const origin = new URL(fake.url).origin;
    expect(
      (await fetch(`${origin}/__fake/enqueue`, { method: "POST", body: JSON.stringify({ text: "first" }) })).status,
    ).toBe(200);
    expect(await streamText({ model: model(), messages, ...quiet }).text).toBe("first");
    expect(await (await fetch(`${fake.url}/models`)).json()).toMatchObject({
      models: [{ name: "models/gemini-fake", inputTokenLimit: 1_048_576 }],
    });
  });
});

const SYSTEM = `You are a careful assistant. ${"Remember the rules of the house. ".repeat(180)}`;
const turn = (i: number) => `Message ${i}: ${"and some more words about the topic at hand ".repeat(10)}`;
const cachedOf = async (history: ModelMessage[], id?: string) => {
  const usage = await streamText({ model: model("k", id), system: SYSTEM, messages: history, ...quiet }).usage;
  return { usage, read: usage.inputTokenDetails.cacheReadTokens ?? 0 };
};

describe("gemini fake: implicit cache", () => {
  it("over 10 calls of a growing conversation reports a cached share that grows", async () => {
    const history: ModelMessage[] = [];
    const shares: number[] = [];
    for (let i = 1; i <= 10; i++) {
      history.push({ role: "user", content: turn(i) });
      const { usage, read } = await cachedOf(history);
      history.push({ role: "assistant", content: `Reply ${i}.` });
      expect(read).toBe(fake.requests.at(-1)?.cache?.readTokens);
      expect(usage.inputTokenDetails.noCacheTokens).toBe((usage.inputTokens ?? 0) - read);
      expect(usage.inputTokenDetails.cacheWriteTokens).toBeUndefined(); // Gemini reports no cache writes
      if (i === 1) expect(read).toBe(0);
      shares.push(read / (usage.inputTokens ?? 1));
    }
    for (let i = 1; i < shares.length; i++) expect(shares[i]).toBeGreaterThan(shares[i - 1] as number);
  });

  it("reads the longest prefix shared with any earlier request; a change early in it misses; caches are per model", async () => {
    const history: ModelMessage[] = [{ role: "user", content: turn(1) }];
    const first = await cachedOf(history);
    history.push({ role: "assistant", content: "Reply." }, { role: "user", content: turn(2) });
    expect((await cachedOf(history)).read).toBe(first.usage.inputTokens);
    const systemTokens = Math.ceil(JSON.stringify({ text: SYSTEM }).length / 4);
    expect((await cachedOf([{ role: "user", content: `${turn(1)}!` }, ...history.slice(1)])).read).toBe(systemTokens);
    expect((await cachedOf(history, "gemini-other")).read).toBe(0);
  });

  it("caches nothing below the minimum size", async () => {
    fake.setCacheMinTokens(1_000_000);
    const history: ModelMessage[] = [{ role: "user", content: turn(1) }];
    await cachedOf(history);
    expect((await cachedOf(history)).read).toBe(0);
    fake.setCacheMinTokens(1024);
    await cachedOf(history);
    expect((await cachedOf(history)).read).toBeGreaterThan(1024);
  });
});
