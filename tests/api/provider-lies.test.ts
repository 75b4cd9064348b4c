// Providers that lie: an answer that is not a finished stream is an error with a reason (and the client's Retry),
// never a complete reply; usage figures that cannot be true are ignored, never a reason to fail, a hint or a meter.
import { beforeEach, describe, expect, it } from "vitest";
import { providerServerForFile } from "../support/app-server.ts";
import { chat, getJson, type StreamChunk } from "../support/chat-client.ts";
import type { FakeReply } from "../support/openai-fake.ts";
import { type ConversationView, expectNoStackTrace, messageText } from "./helpers.ts";

const app = providerServerForFile();

type Usage = { inputTokens: number; contextWindow: number };
const closing = (chunks: StreamChunk[]) =>
  (
    chunks.find((c) => c.type === "message-metadata") as
      | { messageMetadata?: { status?: string; error?: string } }
      | undefined
  )?.messageMetadata;

describe("a provider answer that is not a finished stream", () => {
  beforeEach(() => app.fake.reset());

  const cases: [string, FakeReply, RegExp][] = [
    ["an HTML page (200 text/html)", { kind: "html" }, /answered with text\/html instead of a stream.*OPENAI_BASE_URL/],
    [
      "a JSON body to a streaming request",
      { kind: "json-to-stream", text: "Hi there" },
      /answered with application\/json instead of a stream/,
    ],
    [
      "a stream that ends without a finish reason",
      { kind: "no-finish", text: "Half of a" },
      /ended without saying the reply was finished/,
    ],
  ];

  for (const [name, reply, reason] of cases) {
    it(`is an error with a readable reason: ${name}`, async () => {
      const id = `lie-${reply.kind}`;
      app.fake.enqueue(reply);
      const turn = await chat(app.server.url, { conversationId: id, text: "Hello?" });
      expect(turn.response.status).toBe(200);
      const errors = turn.chunks.filter((c) => c.type === "error");
      expect(errors).toHaveLength(1);
      expect(errors[0]?.errorText).toMatch(reason);
      expect(closing(turn.chunks)).toMatchObject({ status: "error", error: expect.stringMatching(reason) });
      const { body } = await getJson<ConversationView>(`${app.server.url}/api/conversations/${id}`);
      expect(body.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
      expect(body.messages[1]?.metadata).toMatchObject({ status: "error", error: expect.stringMatching(reason) });
      expectNoStackTrace(body.messages[1]?.metadata?.error ?? "");
      if (reply.kind === "no-finish") expect(messageText(body.messages[1])).toBe("Half of a");

      app.fake.enqueue({ text: "Now properly." });
      const next = await chat(app.server.url, { conversationId: id, text: "Again?" });
      expect(next.text).toBe("Now properly.");
      expect(closing(next.chunks)).toMatchObject({ status: "complete" });
    });
  }
});

describe("usage figures that cannot be true", () => {
  beforeEach(() => app.fake.reset());

  const lies: [string, number | string][] = [
    ["negative", -5_000],
    ["not a number", "lots"],
    ["absurd (1e300)", 1e300],
    ["absurd (1e11)", 1e11],
  ];

  for (const [name, figure] of lies) {
    it(`are ignored, not an error, a hint or the meter: ${name}`, async () => {
      const id = `usage-${name.replace(/\W+/g, "-")}`.slice(0, 60);
      app.fake.enqueue({ text: "A fine reply.", usage: { promptTokens: figure, completionTokens: 7 } });
      const turn = await chat(app.server.url, { conversationId: id, text: "Hello?" });
      expect(turn.chunks.filter((c) => c.type === "error")).toEqual([]);
      expect(turn.text).toBe("A fine reply.");
      expect(closing(turn.chunks)).toMatchObject({ status: "complete" });
      for (const chunk of turn.chunks.filter((c) => c.type === "data-context-usage")) {
        const usage = chunk.data as Usage;
        expect(
          Number.isSafeInteger(usage.inputTokens) && usage.inputTokens > 0 && usage.inputTokens < usage.contextWindow,
        ).toBe(true);
      }

      const { body } = await getJson<ConversationView & { contextUsage: Usage }>(
        `${app.server.url}/api/conversations/${id}`,
      );
      expect(body.messages[1]?.metadata?.status).toBeUndefined();
      const meter = body.contextUsage;
      expect(
        Number.isSafeInteger(meter.inputTokens) && meter.inputTokens > 0 && meter.inputTokens < meter.contextWindow,
      ).toBe(true);

      // The next turn's model call carries no context hint built from the lie, and nothing was compressed for it.
      app.fake.enqueue({ text: "Next." });
      const next = await chat(app.server.url, { conversationId: id, text: "And now?" });
      expect(next.text).toBe("Next.");
      expect(app.fake.requests).toHaveLength(2);
      expect(JSON.stringify(app.fake.requests[1]?.body.messages)).not.toMatch(/context-length|conversation-summary/);
    });
  }
});
