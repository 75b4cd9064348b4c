// Faults a deployed chat meets, through the real server: a provider that rate-limits, fails, refuses connections or
// hangs, a briefly locked database, and the server itself killed mid-reply. In every case the person's message
// survives, what streamed is kept or marked incomplete, and the conversation takes the next message.
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { type AppServer, freePort, providerEnv, providerServerForFile, startAppServer } from "../support/app-server.ts";
import { chat, getJson, postChat, type StreamChunk, stopReply } from "../support/chat-client.ts";
import { startOpenAIFake } from "../support/openai-fake.ts";
import { type ConversationView, expectNoStackTrace, messageText, pollUntil, readUntil } from "./helpers.ts";

const RETRYING = { HINTLINE_MAX_RETRIES: "2", HINTLINE_RETRY_BASE_MS: "50" };
const retries = (chunks: StreamChunk[]) =>
  chunks.filter((c) => c.type === "data-retry").map((c) => c.data as { attempt: number; reason: string });
const errors = (chunks: StreamChunk[]) => chunks.filter((c) => c.type === "error").map((c) => String(c.errorText));

async function view(baseUrl: string, id: string): Promise<ConversationView> {
  const { status, body } = await getJson<ConversationView>(`${baseUrl}/api/conversations/${id}`);
  expect(status).toBe(200);
  return body;
}

const sqlitePath = (server: AppServer) => server.databaseUrl.replace(/^file:/, "");

describe("a rate-limiting or failing provider: bounded retries the person can see", () => {
  const env = providerServerForFile(RETRYING);

  it("429 twice (with retry-after-ms), then an answer: two visible retries and one clean reply, stored once", async () => {
    const limited = { kind: "http-error" as const, status: 429, headers: { "retry-after-ms": "120" } };
    env.fake.enqueue(limited, limited, { text: "made it" });
    const started = Date.now();
    const { chunks, text } = await chat(env.server.url, { conversationId: "rate", messageId: "u-rate", text: "hello" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(240);
    expect(retries(chunks)).toEqual([
      expect.objectContaining({ attempt: 1, maxRetries: 2, delayMs: 120, reason: expect.stringMatching(/HTTP 429/) }),
      expect.objectContaining({ attempt: 2, maxRetries: 2, delayMs: 120 }),
    ]);
    expect(text).toBe("made it");
    expect(errors(chunks)).toEqual([]);
    const conversation = await view(env.server.url, "rate");
    expect(conversation.messages.map((m) => [m.role, messageText(m), m.metadata?.status ?? "complete"])).toEqual([
      ["user", "hello", "complete"],
      ["assistant", "made it", "complete"],
    ]);
    expect(conversation.messages[1]!.parts.filter((p) => p.type === "step-start")).toHaveLength(1);
  });

  it("HTTP 500 every time: gives up after two retries with a visible error; the message is kept and the next one works", async () => {
    const failing = { kind: "http-error" as const, status: 500 };
    env.fake.enqueue(failing, failing, failing);
    const { chunks } = await chat(env.server.url, { conversationId: "down", messageId: "u-down", text: "anyone?" });
    expect(retries(chunks)).toHaveLength(2);
    expect(errors(chunks)).toEqual(["The model provider failed (HTTP 500). Try again. (Gave up after 2 retries.)"]);
    const requestsBefore = env.fake.requests.length;
    env.fake.enqueue({ text: "back" });
    const next = await chat(env.server.url, { conversationId: "down", text: "now?" });
    expect(next.text).toBe("back");
    expect(env.fake.requests.length).toBe(requestsBefore + 1);
    const conversation = await view(env.server.url, "down");
    expect(conversation.messages.map((m) => m.metadata?.status ?? "complete")).toEqual([
      "complete",
      "error",
      "complete",
      "complete",
    ]);
    expect(messageText(conversation.messages[0])).toBe("anyone?");
    expect(conversation.messages[1]!.metadata?.error).toMatch(/Gave up after 2 retries/);
  });

  it("does not retry a request the provider rejects as invalid (HTTP 400)", async () => {
    env.fake.enqueue({ kind: "http-error", status: 400 });
    const requestsBefore = env.fake.requests.length;
    const { chunks } = await chat(env.server.url, { conversationId: "invalid", text: "x" });
    expect(retries(chunks)).toEqual([]);
    expect(errors(chunks)[0]).toMatch(/HTTP 400/);
    expect(env.fake.requests.length).toBe(requestsBefore + 1);
  });
});

describe("a provider that refuses connections, then comes back", () => {
  let server: AppServer;
  let port: number;
  const closers: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const close of closers) await close();
  });

  it("retries visibly, reports it could not reach the provider, and works once the provider is up", async () => {
    port = await freePort();
    server = await startAppServer({ env: { ...providerEnv(`http://127.0.0.1:${port}/v1`), ...RETRYING } });
    closers.push(() => server.stop());
    const { chunks } = await chat(server.url, { conversationId: "refused", messageId: "u-refused", text: "hello?" });
    expect(retries(chunks)).toHaveLength(2);
    const [error] = errors(chunks);
    expect(error).toMatch(/could not reach the model provider/i);
    expect(error).toMatch(/Gave up after 2 retries/);
    expectNoStackTrace(error!);

    const fake = await startOpenAIFake({ port });
    closers.unshift(() => fake.close());
    fake.enqueue({ text: "I am here" });
    const next = await chat(server.url, { conversationId: "refused", text: "and now?" });
    expect(next.text).toBe("I am here");
    const conversation = await view(server.url, "refused");
    expect(conversation.messages.map((m) => messageText(m))).toEqual(["hello?", "", "and now?", "I am here"]);
  });
});

describe("a provider that never answers, and the person presses Stop", () => {
  const env = providerServerForFile({ HINTLINE_PROVIDER_TIMEOUT_MS: "30000" });

  it("Stop ends the reply as incomplete at once, and the next message works", async () => {
    env.fake.enqueue({ kind: "hang" });
    const stop = new AbortController();
    const response = await postChat(env.server.url, {
      conversationId: "hang",
      messageId: "u-hang",
      text: "are you there?",
      signal: stop.signal,
    });
    await readUntil(response, (c) => c.type === "data-context-usage");
    // Stop only once the hanging request has reached the provider: stopped before it (a loaded machine is slow to send
    // it), the scripted hang would stay queued and answer the next message instead of "yes".
    const reached = async () => env.fake.requests.some((r) => JSON.stringify(r.body).includes("are you there?"));
    await pollUntil(reached, Boolean, 10_000, "the request to reach the provider");
    stop.abort();
    // "At once" is behaviour, not a stopwatch: Stop answers only once the reply is stored, so the very next read
    // holds it as incomplete (no polling), long before the provider's 30 s timeout would have ended it.
    expect((await stopReply(env.server.url, "hang")).status).toBe(200);
    const settled = await view(env.server.url, "hang");
    expect(settled.messages[1]?.metadata?.status).toBe("incomplete");
    expect(messageText(settled.messages[0])).toBe("are you there?");
    env.fake.enqueue({ text: "yes" });
    const next = await chat(env.server.url, { conversationId: "hang", text: "hello again" });
    expect(next.response.status).toBe(200);
    expect(next.text).toBe("yes");
  });
});

describe("a briefly locked database (SQLite)", () => {
  const env = providerServerForFile();

  it("waits for the lock instead of failing, and stores every message exactly once", async () => {
    env.fake.enqueue({ text: "first" }, { text: "after the lock" });
    await chat(env.server.url, { conversationId: "locked", text: "warm up" });
    const db = new Database(sqlitePath(env.server));
    try {
      db.exec("BEGIN EXCLUSIVE");
      const pending = chat(env.server.url, { conversationId: "locked", messageId: "u-locked", text: "while locked" });
      await new Promise((r) => setTimeout(r, 1_500));
      db.exec("COMMIT");
      const { response, text } = await pending;
      expect(response.status).toBe(200);
      expect(text).toBe("after the lock");
      const rows = db
        .prepare("SELECT id, status FROM Message WHERE conversationId = ? ORDER BY position")
        .all("locked") as Array<{ id: string; status: string }>;
      expect(rows).toHaveLength(4);
      expect(new Set(rows.map((r) => r.id)).size).toBe(4);
      expect(rows.filter((r) => r.id === "u-locked")).toHaveLength(1);
      expect(rows.map((r) => r.status)).toEqual(["complete", "complete", "complete", "complete"]);
    } finally {
      db.close();
    }
  });
});
