// One long unbroken run of a character (an import, a chat message, a model's output) must not stall the server:
// counting its tokens costs linear time, a reply stops at its character ceiling, and an import obeys chat's limits.
// Another client polls GET /api/model all along; every poll must answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { type ConversationView, expectApiError, messageText } from "./helpers.ts";

const CEILING = 300_000;
/**
 * Far above a normal answer's time even on a loaded 2-core machine (the slowest poll there was 0.9–1.5 s at load
 * 20), far below what a quadratic count of these runs costs: gpt-tokenizer's plain `encode` of
 * one unbroken run took 1.4 s at 10,000 characters and 8.4 s at 40,000, so minutes at 300,000.
 */
const POLL_BOUND_MS = 4_000;

/** Polls GET /api/model every ~50 ms until stopped; `slowest()` is the longest any poll took. */
function poller(url: string) {
  let running = true;
  const times: number[] = [];
  const done = (async () => {
    while (running) {
      const started = performance.now();
      const response = await fetch(`${url}/api/model`, { signal: AbortSignal.timeout(60_000) });
      expect(response.status).toBe(200);
      await response.json();
      times.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  return {
    async stop() {
      running = false;
      await done;
      return { polls: times.length, slowest: Math.max(...times) };
    },
  };
}

async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

const importBody = (id: string, messages: unknown[]) => ({ version: 1, conversation: { id, title: "Runs", messages } });
const postImport = (url: string, body: unknown) =>
  fetch(`${url}/api/conversations/import`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });

describe("long unbroken runs", () => {
  let fake: OpenAIFake;
  let server: AppServer;
  const env = () => ({ ...providerEnv(fake.url), HINTLINE_MAX_REPLY_CHARS: String(CEILING) });

  beforeAll(async () => {
    fake = await startOpenAIFake();
    server = await startAppServer({ env: env() });
    // Every route used below answers once before timing starts.
    await chat(server.url, { conversationId: "warm", text: "Hello" });
    await getJson(`${server.url}/api/conversations/warm/context`);
  });

  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  it("imports a 300 KB run, chats a 99 KB run and opens both, while every poll answers", async () => {
    const polls = poller(server.url);
    const run = "=".repeat(300_000);
    const imported = await timed(() =>
      postImport(
        server.url,
        importBody("run-import", [
          { id: "u1", role: "user", parts: [{ type: "text", text: "Draw a line." }] },
          { id: "a1", role: "assistant", parts: [{ type: "text", text: run }] },
        ]),
      ),
    );
    expect(imported.value.status).toBe(201);
    const opened = await timed(() => getJson<ConversationView>(`${server.url}/api/conversations/run-import`));
    expect(opened.value.status).toBe(200);
    expect(messageText(opened.value.body.messages[1])).toHaveLength(300_000);
    const context = await timed(() => getJson(`${server.url}/api/conversations/run-import/context`));
    expect(context.value.status).toBe(200);

    fake.enqueue({ text: "That is a lot of equals signs." });
    const sent = await timed(() => chat(server.url, { conversationId: "run-chat", text: "=".repeat(99_000) }));
    expect(sent.value.response.status).toBe(200);
    expect(sent.value.text).toBe("That is a lot of equals signs.");
    // The imported run fills most of the window: the next message may compress it first (the summary requests are
    // answered by the default), and the reply is still the one meant for it.
    fake.setDefault((req) =>
      JSON.stringify(req.body.messages.at(-1)).includes("Summarize the conversation below")
        ? {
            text: "## Task Overview\nA line.\n## Current State\n-\n## Important Discoveries\n-\n## Next Steps\n-\n## Context to Preserve\n-",
          }
        : { text: "Still a line." },
    );
    const next = await chat(server.url, { conversationId: "run-import", text: "And now?" });
    expect(next.text).toBe("Still a line.");

    const { polls: count, slowest } = await polls.stop();
    console.log(
      `import ${imported.ms.toFixed(0)} ms, open ${opened.ms.toFixed(0)} ms, context ${context.ms.toFixed(0)} ms, 99 KB chat ${sent.ms.toFixed(0)} ms; ${count} polls, slowest ${slowest.toFixed(0)} ms`,
    );
    expect(slowest).toBeLessThan(POLL_BOUND_MS);
  });

  it("opens the imported run promptly after a restart", async () => {
    await server.stop();
    server = await startAppServer({ env: env(), databaseUrl: server.databaseUrl });
    // The routes' first load on a fresh process is not what is measured: warm them on the short conversation, so that
    // the polls time only what the long run costs (its token counts, cold after the restart).
    await getJson(`${server.url}/api/model`);
    await getJson(`${server.url}/api/conversations/warm`);
    await getJson(`${server.url}/api/conversations/warm/context`);
    const polls = poller(server.url);
    const opened = await timed(() => getJson<ConversationView>(`${server.url}/api/conversations/run-import`));
    expect(opened.value.status).toBe(200);
    const context = await timed(() => getJson(`${server.url}/api/conversations/run-import/context`));
    expect(context.value.status).toBe(200);
    const { slowest } = await polls.stop();
    console.log(
      `after restart: open ${opened.ms.toFixed(0)} ms, context ${context.ms.toFixed(0)} ms, slowest poll ${slowest.toFixed(0)} ms`,
    );
    expect(slowest).toBeLessThan(POLL_BOUND_MS);
  });

  it("stops a model that streams megabytes without a space at the reply's character ceiling", async () => {
    const polls = poller(server.url);
    fake.enqueue({ kind: "run", length: 6_000_000, chunkChars: 4096 });
    const flood = await chat(server.url, { conversationId: "run-flood", text: "Draw a very long line." });
    expect(flood.response.status).toBe(200);
    expect(flood.text).toHaveLength(CEILING);
    const closing = flood.chunks.find((c) => c.type === "message-metadata") as {
      messageMetadata?: { status?: string; error?: string };
    };
    expect(closing?.messageMetadata).toMatchObject({
      status: "incomplete",
      error: "The reply reached its 300,000-character limit and was stopped.",
    });

    const { body } = await getJson<ConversationView>(`${server.url}/api/conversations/run-flood`);
    const reply = body.messages[1]!;
    expect(reply.metadata).toMatchObject({
      status: "incomplete",
      error: expect.stringMatching(/300,000-character limit/),
    });
    expect(messageText(reply)).toHaveLength(CEILING);
    expect((await getJson(`${server.url}/api/conversations/run-flood/context`)).status).toBe(200);
    const { slowest } = await polls.stop();
    expect(slowest).toBeLessThan(POLL_BOUND_MS);
  });

  it("refuses an import whose message holds more than chat allows, naming it", async () => {
    const person = await postImport(
      server.url,
      importBody("too-long-person", [
        { id: "long-question", role: "user", parts: [{ type: "text", text: "=".repeat(100_001) }] },
      ]),
    );
    expect(await expectApiError(person, 400, "bad_request")).toMatch(
      /conversation\.messages\.0\.parts.*"long-question".*100,001.*100,000/,
    );
    const assistant = await postImport(
      server.url,
      importBody("too-long-reply", [
        { id: "q", role: "user", parts: [{ type: "text", text: "Go." }] },
        {
          id: "long-answer",
          role: "assistant",
          parts: [
            { type: "text", text: "=".repeat(CEILING) },
            { type: "reasoning", text: "x" },
          ],
        },
      ]),
    );
    expect(await expectApiError(assistant, 400, "bad_request")).toMatch(
      /conversation\.messages\.1\.parts.*"long-answer".*300,001.*300,000/,
    );
    for (const id of ["too-long-person", "too-long-reply"])
      expect((await getJson(`${server.url}/api/conversations/${id}`)).status).toBe(404);
  });
});
