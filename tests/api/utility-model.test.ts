// HINTLINE_UTILITY_MODEL: titles (and summaries) go to the model it names, replies to the conversation's own.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AnthropicFake, startAnthropicFake } from "../support/anthropic-fake.ts";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type GeminiFake, startGeminiFake } from "../support/gemini-fake.ts";
import { pollUntil } from "./helpers.ts";

let anthropic: AnthropicFake;
let gemini: GeminiFake;
let server: AppServer;

beforeAll(async () => {
  [anthropic, gemini] = await Promise.all([startAnthropicFake(), startGeminiFake()]);
  server = await startAppServer({
    env: {
      ANTHROPIC_API_KEY: "k",
      ANTHROPIC_BASE_URL: anthropic.url,
      GOOGLE_GENERATIVE_AI_API_KEY: "k",
      GOOGLE_BASE_URL: gemini.url,
      HINTLINE_MODEL: "anthropic/claude-sonnet-4-5",
      HINTLINE_UTILITY_MODEL: "google/gemini-2.5-flash",
      HINTLINE_MAX_RETRIES: "0",
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await Promise.all([anthropic?.close(), gemini?.close()]);
});

describe("the utility model", () => {
  it("writes the title while the conversation's model writes the reply", async () => {
    const id = `utility-${Date.now()}`;
    anthropic.enqueue({ text: "Start with the boxes." });
    gemini.enqueueTitle({ text: "Moving House" });
    const { text } = await chat(server.url, { conversationId: id, text: "Help me plan moving house" });
    expect(text).toBe("Start with the boxes.");
    const title = async () => (await getJson<{ title: string }>(`${server.url}/api/conversations/${id}`)).body.title;
    expect(await pollUntil(title, (t) => t === "Moving House", 10_000, "the title from the utility model")).toBe(
      "Moving House",
    );
    expect(gemini.titleRequests).toHaveLength(1);
    expect(gemini.titleRequests[0]!.path).toContain("gemini-2.5-flash");
    expect(anthropic.titleRequests).toHaveLength(0);
    expect(anthropic.requests).toHaveLength(1);
    expect(gemini.requests).toHaveLength(0);
  });
});
