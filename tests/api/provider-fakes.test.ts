// The provider-facing paths that ran only against the OpenAI fake, run against the Anthropic and the Gemini fakes
// (the same reply script drives both; only how a request's text is read differs): compression at the trigger with
// the summary call sent to the provider, an automatic retry after an overloaded answer, and Stop mid-reply. Hints,
// tools and the cache figures already run against both (providers.test.ts, anthropic-cache.test.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicFake, startAnthropicFake } from "../support/anthropic-fake.ts";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, chunkReader, getJson, postChat, stopReply } from "../support/chat-client.ts";
import type { RecordedRequest } from "../support/fake-core.ts";
import { startGeminiFake } from "../support/gemini-fake.ts";
import type { ApiMessage } from "./helpers.ts";

type Block = { type?: string; text?: string };
const blocksText = (content: unknown): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? (content as Block[]).map((b) => b.text ?? "").join("")
      : "";

const PROVIDERS = [
  {
    name: "Anthropic",
    model: "anthropic/claude-sonnet-4-5",
    start: () => startAnthropicFake({ apiKey: "sk-ant" }),
    env: (url: string) => ({ ANTHROPIC_API_KEY: "sk-ant", ANTHROPIC_BASE_URL: url }),
    texts: (r: RecordedRequest) => (r.body.messages as Array<{ content: unknown }>).map((m) => blocksText(m.content)),
  },
  {
    name: "Gemini",
    model: "google/gemini-2.5-flash",
    start: () => startGeminiFake({ apiKey: "g-key" }),
    env: (url: string) => ({ GOOGLE_GENERATIVE_AI_API_KEY: "g-key", GOOGLE_BASE_URL: url }),
    texts: (r: RecordedRequest) => (r.body.contents as Array<{ parts: unknown }>).map((c) => blocksText(c.parts)),
  },
];

const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 7} river`).join(" ");
const SUMMARY =
  "## Task Overview\nRivers.\n## Current State\nWriting.\n## Important Discoveries\nNone.\n## Next Steps\nGo on.\n## Context to Preserve\nNone.";

describe.each(PROVIDERS)("$name fake", ({ model, start, env, texts }) => {
  let fake: AnthropicFake;
  let server: AppServer;
  beforeAll(async () => {
    fake = await start();
    server = await startAppServer({
      env: {
        ...env(fake.url),
        HINTLINE_MODEL: model,
        HINTLINE_CONTEXT_WINDOW: "4500",
        HINTLINE_MAX_RETRIES: "1",
        HINTLINE_RETRY_BASE_MS: "50",
      },
    });
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  const isSummaryCall = (r: RecordedRequest) => (texts(r).at(-1) ?? "").startsWith("Summarize the conversation below");
  const view = async (id: string) =>
    (await getJson<{ messages: ApiMessage[] }>(`${server.url}/api/conversations/${id}`)).body.messages;

  it("compresses at the trigger: the summary is asked of the provider, and the next call starts from it", async () => {
    const id = `pf-compress-${Date.now()}`;
    fake.reset();
    fake.setDefault((r) => (isSummaryCall(r) ? { text: SUMMARY } : { text: words(180, "w") }));
    let compressed = false;
    for (let turn = 0; turn < 12 && !compressed; turn++) {
      const { chunks, response } = await chat(server.url, { conversationId: id, text: `turn ${turn}: more please` });
      expect(response.status).toBe(200);
      compressed = chunks.some((c) => c.type === "data-compression");
    }
    expect(compressed).toBe(true);
    const summaryAt = fake.requests.findLastIndex(isSummaryCall);
    expect(summaryAt).toBeGreaterThan(0);
    const after = fake.requests[summaryAt + 1]!;
    expect(texts(after)[0]).toMatch(
      /^<conversation-summary>\nThe earlier part of this conversation was compressed into this summary:\n## Task Overview\nRivers\./,
    );
    // Shorter than the last call before the summaries (one summary call or more, each within the window).
    const size = (r: RecordedRequest) => texts(r).join("").length;
    expect(size(after)).toBeLessThan(size(fake.requests[fake.requests.findIndex(isSummaryCall) - 1]!));
    const chip = (await view(id)).flatMap((m) => m.parts).find((p) => p.type === "data-compression") as
      | { data?: { fallback: boolean; tokensBefore: number; tokensAfter: number } }
      | undefined;
    expect(chip?.data?.fallback).toBe(false);
    expect(chip!.data!.tokensAfter).toBeLessThan(chip!.data!.tokensBefore);
  });

  it("retries an overloaded answer once and stores the reply as complete", async () => {
    const id = `pf-retry-${Date.now()}`;
    fake.reset();
    fake.enqueue({ kind: "error", error: "overloaded" }, { text: "Back again." });
    const { chunks, text } = await chat(server.url, { conversationId: id, text: "Are you there?" });
    expect(text).toBe("Back again.");
    expect(chunks.filter((c) => c.type === "data-retry")).toHaveLength(1);
    expect(chunks.some((c) => c.type === "error")).toBe(false);
    expect(fake.requests).toHaveLength(2);
    const reply = (await view(id)).at(-1)!;
    expect(reply.metadata?.status).toBeUndefined();
    expect(reply.parts.filter((p) => p.type === "text").map((p) => p.text)).toEqual(["Back again."]);
  });

  it("stops mid-reply: what was streamed is kept as incomplete, never as complete, and nothing more is asked", async () => {
    const id = `pf-stop-${Date.now()}`;
    fake.reset();
    fake.enqueue({ text: words(400, "s"), chunkDelayMs: 20 });
    const live = chunkReader(await postChat(server.url, { conversationId: id, text: "A long one, please." }));
    await live.until((c) => c.type === "text-delta");
    expect((await stopReply(server.url, id)).status).toBe(200);
    await live.rest();
    const reply = (await view(id)).at(-1)!;
    expect(reply.role).toBe("assistant");
    expect(reply.metadata?.status).toBe("incomplete");
    const kept = reply.parts
      .filter((p) => p.type === "text")
      .map((p) => p.text ?? "")
      .join("");
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThan(words(400, "s").length);
    expect(fake.requests).toHaveLength(1);
  });
});
