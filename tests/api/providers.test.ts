// provider/model ids through the real server with two providers configured at once (Anthropic and Gemini, each at its
// HTTP fake, no OpenAI): GET /api/models, PATCH { model } with its 400s, and a conversation that switches provider.
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicFake, startAnthropicFake } from "../support/anthropic-fake.ts";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type GeminiFake, startGeminiFake } from "../support/gemini-fake.ts";
import { type ApiMessage, expectApiError, jsonRequest, userMessage } from "./helpers.ts";

let anthropic: AnthropicFake;
let gemini: GeminiFake;
let server: AppServer;

beforeAll(async () => {
  [anthropic, gemini] = await Promise.all([
    startAnthropicFake({ apiKey: "sk-ant" }),
    startGeminiFake({ apiKey: "g-key" }),
  ]);
  server = await startAppServer({
    env: {
      ANTHROPIC_API_KEY: "sk-ant",
      ANTHROPIC_BASE_URL: anthropic.url,
      GOOGLE_GENERATIVE_AI_API_KEY: "g-key",
      GOOGLE_BASE_URL: gemini.url,
      HINTLINE_MAX_RETRIES: "0",
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([anthropic?.close(), gemini?.close()]);
});

type ModelInfo = { id: string; provider: string; contextWindow: number; isDemo: boolean };

describe("provider/model ids", () => {
  it("GET /api/models lists the default first and the models of every configured provider", async () => {
    const { status, body } = await getJson<{ default: string; models: ModelInfo[] }>(`${server.url}/api/models`);
    expect(status).toBe(200);
    expect(body.default).toBe("anthropic/claude-sonnet-4-5");
    expect(body.models[0]).toEqual({
      id: "anthropic/claude-sonnet-4-5",
      provider: "anthropic",
      contextWindow: 200_000,
      isDemo: false,
    });
    const ids = body.models.map((m) => m.id);
    expect(ids).toEqual(
      expect.arrayContaining(["anthropic/claude-haiku-4-5", "google/gemini-2.5-pro", "google/gemini-2.5-flash"]),
    );
    expect(ids.some((id) => id.startsWith("openai/"))).toBe(false);
    // The demo stays a choice beside the providers, labelled, last (issue 46).
    expect(body.models.at(-1)).toEqual({ id: "hintline-demo", provider: "demo", contextWindow: 8_192, isDemo: true });
    expect((await fetch(`${server.url}/api/models`, { method: "POST" })).status).toBe(405);
  });

  it("a conversation uses the default model, then the one PATCH { model } chose, and back with null", async () => {
    const id = `providers-switch-${Date.now()}`;
    const url = `${server.url}/api/conversations/${id}`;
    anthropic.enqueue({ text: "Claude here." });
    const first = await chat(server.url, { conversationId: id, text: "Who are you?" });
    expect(first.response.status).toBe(200);
    expect(first.text).toBe("Claude here.");
    expect(anthropic.requests.at(-1)!.body.model).toBe("claude-sonnet-4-5");
    // By default the marks ask for Anthropic's default 5-minute cache: no ttl on the wire.
    const sent = JSON.stringify(anthropic.requests.at(-1)!.body);
    expect(sent).toContain('"cache_control":{"type":"ephemeral"}');
    expect(sent).not.toContain('"ttl"');

    const patched = await fetch(url, jsonRequest("PATCH", { model: "google/gemini-2.5-pro" }));
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as { model: ModelInfo }).model).toEqual({
      id: "google/gemini-2.5-pro",
      provider: "google",
      contextWindow: 1_048_576,
      isDemo: false,
    });
    gemini.enqueue({ text: "Gemini here." });
    const second = await chat(server.url, { conversationId: id, text: "And now?" });
    expect(second.text).toBe("Gemini here.");
    expect(gemini.requests.at(-1)!.path).toContain("/models/gemini-2.5-pro:streamGenerateContent");
    // The new provider gets the whole conversation, the earlier reply included.
    expect(JSON.stringify(gemini.requests.at(-1)!.body.contents)).toContain("Claude here.");

    // The cache detector names the break: nothing cached by the first provider serves the second.
    const { body: context } = await getJson<{
      cache: { breaks: Array<{ call: number; changed: string; cause: string }> };
    }>(`${url}/context`);
    expect(context.cache.breaks.map(({ call, changed, cause }) => ({ call, changed, cause }))).toEqual([
      { call: 2, changed: "model", cause: "model-switch" },
    ]);
    const view = await getJson<{ model: ModelInfo; messages: ApiMessage[]; contextUsage: { contextWindow: number } }>(
      url,
    );
    expect(view.body.model.id).toBe("google/gemini-2.5-pro");
    expect(view.body.contextUsage.contextWindow).toBe(1_048_576);
    expect(view.body.messages.filter((m) => m.role === "assistant").map((m) => m.metadata?.model)).toEqual([
      "anthropic/claude-sonnet-4-5",
      "google/gemini-2.5-pro",
    ]);

    expect((await fetch(url, jsonRequest("PATCH", { model: null }))).status).toBe(200);
    expect((await getJson<{ model: ModelInfo }>(url)).body.model.id).toBe("anthropic/claude-sonnet-4-5");
  });

  it("refuses a model it cannot use with a 400 that names the field and what to set, and changes nothing", async () => {
    const id = `providers-bad-${Date.now()}`;
    const url = `${server.url}/api/conversations/${id}`;
    anthropic.enqueue({ text: "Hi." });
    await chat(server.url, { conversationId: id, text: "Hi" });
    expect((await fetch(url, jsonRequest("PATCH", { model: "anthropic/claude-haiku-4-5" }))).status).toBe(200);
    const cases: Array<[unknown, RegExp]> = [
      ["gpt-4o", /Invalid model:.*OPENAI_API_KEY/],
      ["google/palm-9", /context window of google\/palm-9.*HINTLINE_CONTEXT_WINDOW/],
      ["anthropic/", /names no model/],
      ["", /model/],
      ["has space", /model/],
      [42, /model/],
    ];
    for (const [model, message] of cases) {
      expect(await expectApiError(await fetch(url, jsonRequest("PATCH", { model })), 400, "bad_request")).toMatch(
        message,
      );
    }
    expect((await getJson<{ model: ModelInfo }>(url)).body.model.id).toBe("anthropic/claude-haiku-4-5");
    await expectApiError(
      await fetch(
        `${server.url}/api/conversations/nope-${Date.now()}`,
        jsonRequest("PATCH", { model: "google/gemini-2.5-pro" }),
      ),
      404,
      "not_found",
    );
  });
});

describe("a Gemini model name that would steer the request's URL", () => {
  // Gemini's name is a path segment (`/v1beta/models/{name}:streamGenerateContent`): each rewrote the path the
  // conversation and the key were posted to, through PATCH, a new conversation's chat, an import or an agent.
  const steering = [
    "google/gemini-2.5-flash:generateContent?alt=json&x=",
    "google/x/../gemini-2.5-flash",
    "google/gemini-2.5-flash\\..\\..\\files",
    "google/gemini-2.5-flash%2F..%2F..%2Ffiles",
    "google/gemini-2.5-flash#",
  ];
  const MODEL_CALL = /^POST \/v1beta\/models\/[A-Za-z0-9][A-Za-z0-9._%-]*:streamGenerateContent\?alt=sse$/;
  /** The status and the field an error names (a stream that was accepted names none). */
  const errorOf = async (response: Response) => {
    const text = await response.text();
    const field = response.ok ? undefined : (JSON.parse(text) as { error?: { field?: string } }).error?.field;
    return { status: response.status, field };
  };

  it("is refused with a 400 naming the field on every route that takes a model, and no request reaches another path", async () => {
    const agent = await fetch(
      `${server.url}/api/workspaces/default/agents`,
      jsonRequest("POST", { id: "steer-agent", description: "d", instructions: "i" }),
    );
    expect(agent.status).toBe(201);
    const outcomes = [];
    for (const [i, model] of steering.entries()) {
      const id = `steer-${i}-${Date.now()}`;
      await chat(server.url, { conversationId: id, text: "Hi" });
      const patch = await errorOf(
        await fetch(`${server.url}/api/conversations/${id}`, jsonRequest("PATCH", { model })),
      );
      // The conversation's next message goes to whatever model it has now.
      await chat(server.url, { conversationId: id, text: "And now?" });
      const created = await errorOf(
        await fetch(
          `${server.url}/api/chat`,
          jsonRequest("POST", { id: `${id}-new`, message: userMessage(`m-${id}`, "Hi"), model }),
        ),
      );
      const imported = await errorOf(
        await fetch(
          `${server.url}/api/conversations/import`,
          jsonRequest("POST", {
            version: 1,
            conversation: { id: `${id}-import`, model, messages: [userMessage(`i-${id}`, "Hi")] },
          }),
        ),
      );
      const defined = await errorOf(
        await fetch(
          `${server.url}/api/workspaces/default/agents`,
          jsonRequest("POST", { id: `steer-${i}`, description: "d", instructions: "i", model }),
        ),
      );
      const edited = await errorOf(
        await fetch(`${server.url}/api/workspaces/default/agents/steer-agent`, jsonRequest("PATCH", { model })),
      );
      outcomes.push({ model, patch, created, imported, defined, edited });
    }
    const refused = (field: string) => ({ status: 400, field });
    expect(outcomes).toEqual(
      steering.map((model) => ({
        model,
        patch: refused("model"),
        created: refused("model"),
        imported: refused("conversation.model"),
        defined: refused("model"),
        edited: refused("model"),
      })),
    );
    expect(gemini.requestLines.filter((line) => !MODEL_CALL.test(line))).toEqual([]);
    const agents = (await getJson<Array<{ id: string; model?: string }>>(`${server.url}/api/workspaces/default/agents`))
      .body;
    expect(agents.filter((a) => a.id.startsWith("steer-")).map((a) => [a.id, a.model])).toEqual([
      ["steer-agent", undefined],
    ]);
  });

  it("stored before names were checked, is refused when the conversation calls its model: no request is sent", async () => {
    const id = `steer-stored-${Date.now()}`;
    await chat(server.url, { conversationId: id, text: "Hi" });
    const db = new Database(server.databaseUrl.replace(/^file:/, ""));
    try {
      db.prepare('UPDATE "Conversation" SET "model" = ? WHERE "id" = ?').run("google/x/../gemini-2.5-flash", id);
    } finally {
      db.close();
    }
    const before = gemini.requestLines.length;
    const response = await fetch(
      `${server.url}/api/chat`,
      jsonRequest("POST", { id, message: userMessage(`m-${id}`, "And now?") }),
    );
    const message = await expectApiError(response, 502, "provider_error");
    expect(message).toMatch(/cannot be a Gemini model: its name goes into the request's URL/);
    expect(gemini.requestLines.slice(before)).toEqual([]);
  });
});

describe("Gemini", () => {
  it("answers with a tool call that runs, and records each call's usage with its cached-content tokens", async () => {
    const id = `providers-gemini-${Date.now()}`;
    expect(
      (await fetch(`${server.url}/api/conversations/${id}`, jsonRequest("PATCH", { model: "google/gemini-2.5-flash" })))
        .status,
    ).toBe(404);
    anthropic.enqueue({ text: "Hi." });
    await chat(server.url, { conversationId: id, text: "Hi" });
    expect(
      (await fetch(`${server.url}/api/conversations/${id}`, jsonRequest("PATCH", { model: "google/gemini-2.5-flash" })))
        .status,
    ).toBe(200);
    gemini.setCacheMinTokens(64);
    const before = gemini.requests.length;
    gemini.enqueue(
      { kind: "tools", calls: [{ name: "TaskCreate", arguments: { subject: "Pack", description: "boxes" } }] },
      { text: "Made the task." },
    );
    const { text } = await chat(server.url, { conversationId: id, text: "add a task: Pack" });
    expect(text).toBe("Made the task.");
    const served = gemini.requests.slice(before);
    expect(served).toHaveLength(2);
    // The tool's result went back to Gemini as a functionResponse.
    expect(JSON.stringify(served[1]!.body.contents)).toContain("functionResponse");
    const { body: tasks } = await getJson<Array<{ subject: string }>>(`${server.url}/api/conversations/${id}/tasks`);
    expect(tasks.map((t) => t.subject)).toEqual(["Pack"]);
    const { body: view } = await getJson<{ messages: ApiMessage[] }>(`${server.url}/api/conversations/${id}`);
    const reply = view.messages.at(-1)!;
    expect(reply.metadata?.model).toBe("google/gemini-2.5-flash");
    // Complete (a stored reply shows a status only when it is not).
    expect(reply.metadata?.status).toBeUndefined();
    expect(reply.metadata?.error).toBeUndefined();
    const usage = reply.metadata?.usage as Array<{
      inputTokens?: number;
      cachedInputTokens?: number;
      cacheWriteTokens?: number;
    }>;
    expect(usage.map((u) => u.inputTokens)).toEqual(served.map((r) => r.cache!.inputTokens + r.cache!.readTokens));
    expect(usage.map((u) => u.cachedInputTokens ?? 0)).toEqual(served.map((r) => r.cache!.readTokens));
    // The second call re-sent the first's prompt: Gemini's implicit cache served it.
    expect(usage[1]!.cachedInputTokens).toBeGreaterThan(0);
    expect(usage.every((u) => u.cacheWriteTokens === undefined)).toBe(true);
  });
});

describe("the cache floor", () => {
  it("shows a short conversation's zero reads under Gemini 3's 4,096-token minimum as below-cache-floor, no break", async () => {
    const id = `providers-floor-${Date.now()}`;
    anthropic.enqueue({ text: "Hi." });
    await chat(server.url, { conversationId: id, text: "Hi" });
    const patch = jsonRequest("PATCH", { model: "google/gemini-3-flash" });
    expect((await fetch(`${server.url}/api/conversations/${id}`, patch)).status).toBe(200);
    gemini.setCacheMinTokens(4096);
    gemini.enqueue({ text: "Short." }, { text: "Still short." });
    await chat(server.url, { conversationId: id, text: "one" });
    await chat(server.url, { conversationId: id, text: "two" });
    type Call = { model: string; inputTokens: number; cachedInputTokens: number; cacheReason?: string };
    const { body } = await getJson<{
      cache: { calls: Array<Call & { minCacheTokens?: number }>; breaks: Array<{ call: number; cause: string }> };
    }>(`${server.url}/api/conversations/${id}/context`);
    const short = body.cache.calls.filter((c) => c.model === "google/gemini-3-flash");
    expect(short).toHaveLength(2);
    for (const call of short) {
      expect(call.inputTokens).toBeLessThan(4096);
      expect(call).toMatchObject({ cachedInputTokens: 0, cacheReason: "below-cache-floor", minCacheTokens: 4096 });
    }
    // The switch to Gemini is a break; the second call's zero read under the floor is none.
    expect(body.cache.breaks.map((b) => [b.call, b.cause])).toEqual([[2, "model-switch"]]);
    const { body: view } = await getJson<{ contextUsage: { cache: { lastCall: Record<string, unknown> } } }>(
      `${server.url}/api/conversations/${id}`,
    );
    expect(view.contextUsage.cache.lastCall).toMatchObject({ cacheReason: "below-cache-floor", minCacheTokens: 4096 });
    gemini.setCacheMinTokens(1024);
  });
});

describe("a provider's refusal", () => {
  it("is stored as an error in words, never as a complete reply, keeps the message, and the retry works", async () => {
    const id = `providers-refusal-${Date.now()}`;
    const errorsOf = (chunks: Array<{ type: string; errorText?: unknown }>) =>
      chunks.filter((c) => c.type === "error").map((c) => c.errorText);
    const view = async () =>
      (await getJson<{ messages: ApiMessage[] }>(`${server.url}/api/conversations/${id}`)).body.messages;

    anthropic.enqueue({ kind: "error", error: "overloaded" });
    const first = await chat(server.url, { conversationId: id, messageId: "m1", text: "Are you there?" });
    expect(first.response.status).toBe(200);
    expect(errorsOf(first.chunks)).toEqual(["Anthropic is overloaded (HTTP 529: Overloaded). Try again in a moment."]);
    let messages = await view();
    expect(messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(messages[1]!.metadata).toMatchObject({
      status: "error",
      error: expect.stringMatching(/^Anthropic is overloaded/),
    });

    // Retry (the same message again): a reply that breaks off mid-stream is kept as it is, not as complete.
    anthropic.enqueue({ kind: "stream-error", text: "One two three four five", afterChunks: 2, error: "overloaded" });
    const second = await chat(server.url, { conversationId: id, messageId: "m1", text: "Are you there?" });
    expect(errorsOf(second.chunks)[0]).toMatch(/overloaded/i);
    messages = await view();
    expect(messages.at(-1)!.metadata?.status).toBe("error");

    anthropic.enqueue({ kind: "error", error: "too-long" });
    const third = await chat(server.url, { conversationId: id, messageId: "m1", text: "Are you there?" });
    expect(errorsOf(third.chunks)[0]).toMatch(
      /^The conversation is too long for this model's context window \(HTTP 400: prompt is too long/,
    );

    anthropic.enqueue({ text: "Here now." });
    const fourth = await chat(server.url, { conversationId: id, messageId: "m1", text: "Are you there?" });
    expect(fourth.text).toBe("Here now.");
    messages = await view();
    expect(messages.filter((m) => m.role === "user")).toHaveLength(1);
    expect(messages.at(-1)!.metadata?.status).toBeUndefined();
  });

  it("a wrong key names the provider's key variable", async () => {
    const id = `providers-key-${Date.now()}`;
    anthropic.enqueue({ kind: "error", error: "auth" });
    const { chunks } = await chat(server.url, { conversationId: id, text: "Hi" });
    expect(chunks.filter((c) => c.type === "error").map((c) => c.errorText)).toEqual([
      "Anthropic refused the request (HTTP 401: invalid x-api-key): check the API key (ANTHROPIC_API_KEY).",
    ]);
  });
});
