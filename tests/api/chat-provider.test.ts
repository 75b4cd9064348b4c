// POST /api/chat against an OpenAI-compatible provider (a real HTTP fake): the request it receives, and how provider
// failures reach the person without losing their message.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AppServer, freePort, providerEnv, startAppServer } from "../support/app-server.ts";
import { chat, getJson, type StreamChunk } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { type ConversationView, expectNoStackTrace, messageText } from "./helpers.ts";

type WireMessage = { role: string; content: unknown };

/** The text of a Chat Completions message, whether its content is a string or an array of parts. */
function wireText(message: WireMessage | undefined): string {
  const content = message?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p: { text?: string }) => p.text ?? "").join("");
  return "";
}

/** The person's messages in a request (system reminders the app may inject are not the person's). */
const personMessages = (messages: WireMessage[]) =>
  messages.filter((m) => m.role === "user" && !wireText(m).trimStart().startsWith("<system-reminder>"));

function errorChunk(chunks: StreamChunk[]): string {
  const errors = chunks.filter((c) => c.type === "error");
  expect(errors).toHaveLength(1);
  const errorText = errors[0]?.errorText;
  expect(errorText).toEqual(expect.any(String));
  expectNoStackTrace(errorText as string);
  expect((errorText as string).length).toBeLessThan(400);
  return errorText as string;
}

async function view(baseUrl: string, id: string): Promise<ConversationView> {
  const { status, body } = await getJson<ConversationView>(`${baseUrl}/api/conversations/${id}`);
  expect(status).toBe(200);
  return body;
}

/** After a failed turn: the person's message is kept and the reply is stored with status "error" and a reason. */
async function expectFailedTurn(baseUrl: string, conversationId: string, userId: string, userText: string) {
  const conversation = await view(baseUrl, conversationId);
  expect(conversation.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
  expect(conversation.messages[0]).toMatchObject({ id: userId, role: "user" });
  expect(messageText(conversation.messages[0])).toBe(userText);
  const reply = conversation.messages[1]!;
  expect(reply.metadata?.status).toBe("error");
  const reason = reply.metadata?.error ?? "";
  expect(reason.trim().length).toBeGreaterThan(0);
  expectNoStackTrace(reason);
  return reply;
}

describe("chat with an OpenAI-compatible provider", () => {
  let fake: OpenAIFake;
  let server: AppServer;

  beforeAll(async () => {
    fake = await startOpenAIFake();
    server = await startAppServer({ env: providerEnv(fake.url) });
  });

  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  beforeEach(() => fake.reset());

  /** The next turn in the conversation works again. */
  async function expectRecovery(conversationId: string) {
    fake.enqueue({ text: "Back again." });
    const next = await chat(server.url, { conversationId, messageId: "after", text: "Still there?" });
    expect(next.response.status).toBe(200);
    expect(next.chunks.some((c) => c.type === "error")).toBe(false);
    expect(next.text).toBe("Back again.");
    const conversation = await view(server.url, conversationId);
    expect(conversation.messages.slice(2).map((m) => [m.id === "after", m.role, m.metadata?.status])).toEqual([
      [true, "user", undefined],
      [false, "assistant", undefined],
    ]);
    expect(messageText(conversation.messages[3])).toBe("Back again.");
  }

  it("sends a streaming request with the system message first and the person's text last", async () => {
    fake.enqueue({ text: "Rivers carry water to the sea." });
    const first = await chat(server.url, { conversationId: "wire", text: "What is a river?" });
    expect(first.response.status).toBe(200);
    expect(first.text).toBe("Rivers carry water to the sea.");
    // The event stream is never gzipped (the client accepts gzip): a compressor per reply delays the first token.
    expect(first.response.headers.get("cache-control")).toBe("no-cache, no-transform");
    expect(first.response.headers.get("content-encoding")).toBeNull();
    expect(fake.requests).toHaveLength(1);
    const request = fake.requests[0]!;
    expect(request.path).toBe("/v1/chat/completions");
    expect(request.body.stream).toBe(true);
    expect(request.body.model).toBe("fake-model");
    const messages = request.body.messages as WireMessage[];
    expect(messages[0]?.role).toBe("system");
    expect(wireText(messages[0]).length).toBeGreaterThan(0);
    expect(messages.at(-1)?.role).toBe("user");
    expect(wireText(personMessages(messages).at(-1))).toBe("What is a river?");

    fake.enqueue({ text: "They also shape valleys." });
    const second = await chat(server.url, { conversationId: "wire", text: "Tell me more." });
    expect(second.response.status).toBe(200);
    expect(fake.requests).toHaveLength(2);
    const next = fake.requests[1]!.body.messages as WireMessage[];
    expect(next.length).toBeGreaterThan(messages.length);
    messages.forEach((message, i) => {
      expect(next[i]).toEqual(message);
    });
    const added = next.slice(messages.length);
    expect(added.some((m) => m.role === "assistant" && wireText(m) === "Rivers carry water to the sea.")).toBe(true);
    expect(wireText(personMessages(next).at(-1))).toBe("Tell me more.");
  });

  it("adds nothing but ASCII of its own to a request: system prompt, tools, hints, tool results", async () => {
    // One non-ASCII character anywhere makes V8 serialise the whole request body as a two-byte string: about 9×
    // slower for a 2,000-message conversation (npm run bench). What the person writes is theirs; Hintline adds none.
    fake.enqueue(
      { kind: "tools", calls: [{ name: "TaskCreate", arguments: { subject: "Draft the plan" } }] },
      { text: "Planned." },
    );
    const turn = await chat(server.url, { conversationId: "ascii", text: "Plan the trip, step by step." });
    expect(turn.response.status).toBe(200);
    expect(turn.text).toBe("Planned.");
    expect(fake.requests).toHaveLength(2);
    for (const request of fake.requests) {
      const body = JSON.stringify(request.body);
      expect(body).toContain("<system-reminder>");
      expect(body.match(/[^\x00-\x7f]/g) ?? []).toEqual([]);
    }
  });

  it("reports a provider HTTP 500 in the stream and keeps the person's message", async () => {
    fake.enqueue({ kind: "http-error", status: 500 });
    const { response, chunks } = await chat(server.url, {
      conversationId: "fails",
      messageId: "q1",
      text: "Are you there?",
    });
    expect(response.status).toBe(200);
    expect(errorChunk(chunks)).toMatch(/HTTP 500/);
    const metadata = chunks.find((c) => c.type === "message-metadata")?.messageMetadata as { status?: string };
    expect(metadata?.status).toBe("error");
    await expectFailedTurn(server.url, "fails", "q1", "Are you there?");
    await expectRecovery("fails");
  });

  it("stores what streamed before the provider cut the connection", async () => {
    fake.enqueue({ kind: "cut", text: "one two three four five six", afterChunks: 3 });
    const { response, chunks, text } = await chat(server.url, {
      conversationId: "cut",
      messageId: "c1",
      text: "Count for me",
    });
    expect(response.status).toBe(200);
    expect(text).toBe("one two three ");
    errorChunk(chunks);
    const reply = await expectFailedTurn(server.url, "cut", "c1", "Count for me");
    expect(messageText(reply)).toBe(text);
    await expectRecovery("cut");
  });

  it("describes a connection cut mid-reply as a broken connection, not as an HTTP failure", async () => {
    fake.enqueue({ kind: "cut", text: "one two three four five six", afterChunks: 2 });
    const { chunks } = await chat(server.url, { conversationId: "cut-wording", text: "Count again" });
    const errorText = errorChunk(chunks);
    expect(errorText).not.toMatch(/HTTP 200/);
    expect(errorText).toMatch(/connection|broke|interrupt/i);
  });
});

describe("chat when the provider cannot be reached", () => {
  let server: AppServer;

  beforeAll(async () => {
    const closedPort = await freePort();
    server = await startAppServer({ env: providerEnv(`http://127.0.0.1:${closedPort}/v1`) });
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("says it could not reach the provider and keeps the person's message", async () => {
    const { response, chunks } = await chat(server.url, { conversationId: "refused", messageId: "r1", text: "Hello?" });
    expect(response.status).toBe(200);
    expect(errorChunk(chunks)).toMatch(/could not reach/i);
    await expectFailedTurn(server.url, "refused", "r1", "Hello?");
  });
});

describe("a provider that never answers", () => {
  let fake: OpenAIFake;
  let server: AppServer;
  beforeAll(async () => {
    fake = await startOpenAIFake();
    server = await startAppServer({ env: { ...providerEnv(fake.url), HINTLINE_PROVIDER_TIMEOUT_MS: "1500" } });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("times out with a visible error, keeps the person's message, and the next message works", async () => {
    fake.enqueue({ kind: "hang" });
    const started = Date.now();
    const { chunks } = await chat(server.url, { conversationId: "silent", text: "hello?" });
    expect(Date.now() - started).toBeLessThan(15_000);
    const errors = chunks.filter((c) => c.type === "error");
    expect(errors).toHaveLength(1);
    expect(String(errors[0]!.errorText)).toMatch(/did not answer in time/);
    const { body } = await getJson<ConversationView>(`${server.url}/api/conversations/silent`);
    expect(messageText(body.messages[0])).toBe("hello?");
    expect(body.messages[1]?.metadata?.status).toBe("error");
    fake.enqueue({ text: "back again" });
    const next = await chat(server.url, { conversationId: "silent", text: "still there?" });
    expect(next.text).toBe("back again");
  });
});
