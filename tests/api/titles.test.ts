// Generated titles: after the first exchange the conversation gets a short title — one small model call with a real
// provider (the OpenAI fake), a rule with the demo model — stored neutralised; a failing title call changes nothing
// else, and later turns, retries and renamed conversations make no title call.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type AppServer, providerServerForFile, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type ConversationSummary, type ConversationView, jsonRequest } from "./helpers.ts";

async function titleOf(server: AppServer, id: string): Promise<string> {
  const { body } = await getJson<ConversationView>(`${server.url}/api/conversations/${id}`);
  const listed = (await getJson<ConversationSummary[]>(`${server.url}/api/conversations`)).body.find(
    (c) => c.id === id,
  );
  expect(listed?.title).toBe(body.title);
  return body.title;
}

describe("generated titles with a provider", () => {
  const ctx = providerServerForFile();
  beforeEach(() => ctx.fake.reset());

  it("makes one small title call after the first reply and stores its answer as one neutral line", async () => {
    ctx.fake.enqueue({ text: "Rivers bend because water erodes the outer bank." });
    ctx.fake.enqueueTitle({
      text: 'Title: "<b>River</b> Bends <system-reminder>and\nwhy</system-reminder> they form over many centuries."',
    });
    const first = await chat(ctx.server.url, {
      conversationId: "titled",
      messageId: "m1",
      text: "why do rivers bend so much, tell me everything",
    });
    expect(first.response.status).toBe(200);
    expect(first.text).toBe("Rivers bend because water erodes the outer bank.");

    expect(ctx.fake.titleRequests).toHaveLength(1);
    const request = ctx.fake.titleRequests[0]!.body as {
      max_tokens?: number;
      max_completion_tokens?: number;
      messages: { role: string; content: unknown }[];
      tools?: unknown;
    };
    expect(request.max_tokens ?? request.max_completion_tokens).toBe(20);
    // Keyed for OpenAI's prompt cache by the conversation, as its reply was.
    expect(ctx.fake.titleRequests[0]!.body.prompt_cache_key).toBe("titled");
    expect(ctx.fake.requests[0]!.body.prompt_cache_key).toBe("titled");
    expect(request.tools).toBeUndefined();
    expect(JSON.stringify(request.messages)).toContain("why do rivers bend so much");
    expect(JSON.stringify(request.messages)).toContain("erodes the outer bank");
    // The chat's own call is untouched by it.
    expect(ctx.fake.requests).toHaveLength(1);

    const title = await titleOf(ctx.server, "titled");
    expect(title).toBe("River Bends and"); // tags and the second line gone, quotes and the "Title:" prefix dropped
    expect(title).not.toMatch(/[<>\n]/);

    // Later turns and a retry of a later message make no title call, and the title stays.
    ctx.fake.enqueue({ text: "Sure." });
    ctx.fake.enqueueTitle({ text: "Another Title" });
    await chat(ctx.server.url, { conversationId: "titled", messageId: "m2", text: "and lakes?" });
    expect(ctx.fake.titleRequests).toHaveLength(1);
    expect(await titleOf(ctx.server, "titled")).toBe("River Bends and");
  });

  it("bounds a long answer to six words and 60 characters", async () => {
    ctx.fake.enqueue({ text: "Answer." });
    ctx.fake.enqueueTitle({ text: "One two three four five six seven eight nine ten" });
    await chat(ctx.server.url, { conversationId: "titled-long", text: "a question" });
    expect(await titleOf(ctx.server, "titled-long")).toBe("One two three four five six");
  });

  it("keeps the first message as the title when the title call fails, and the conversation goes on", async () => {
    ctx.fake.enqueue({ text: "First answer." });
    ctx.fake.enqueueTitle({ kind: "http-error", status: 500 });
    const first = await chat(ctx.server.url, { conversationId: "untitled", text: "how deep is the sea" });
    expect(first.chunks.some((c) => c.type === "error")).toBe(false);
    expect(first.text).toBe("First answer.");
    expect(ctx.fake.titleRequests).toHaveLength(1);
    expect(await titleOf(ctx.server, "untitled")).toBe("how deep is the sea");
    const { body } = await getJson<ConversationView>(`${ctx.server.url}/api/conversations/untitled`);
    expect(body.messages.map((m) => [m.role, m.metadata?.status])).toEqual([
      ["user", undefined],
      ["assistant", undefined],
    ]);

    ctx.fake.enqueue({ text: "Second answer." });
    const next = await chat(ctx.server.url, { conversationId: "untitled", text: "and the ocean?" });
    expect(next.text).toBe("Second answer.");
    expect(ctx.fake.titleRequests).toHaveLength(1);
  });

  it("never renames a conversation the person renamed, and leaves a failed first reply's title alone", async () => {
    ctx.fake.enqueue({ kind: "http-error", status: 400 });
    await chat(ctx.server.url, { conversationId: "failed-first", text: "hello there" });
    expect(ctx.fake.titleRequests).toHaveLength(0);
    expect(await titleOf(ctx.server, "failed-first")).toBe("hello there");

    // Renamed before the first reply settles (after a failed one): the retry's success does not rename it.
    const renamed = await fetch(
      `${ctx.server.url}/api/conversations/failed-first`,
      jsonRequest("PATCH", { title: "My own name" }),
    );
    expect(renamed.status).toBe(200);
    const { body } = await getJson<ConversationView>(`${ctx.server.url}/api/conversations/failed-first`);
    ctx.fake.enqueue({ text: "Now it works." });
    ctx.fake.enqueueTitle({ text: "Generated" });
    await chat(ctx.server.url, {
      conversationId: "failed-first",
      messageId: body.messages[0]!.id,
      text: "hello there",
    });
    expect(ctx.fake.titleRequests).toHaveLength(0);
    expect(await titleOf(ctx.server, "failed-first")).toBe("My own name");
  });
});

describe("generated titles with the demo model", () => {
  let server: AppServer;
  beforeAll(async () => {
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it("titles the conversation by rule: the first message as a short phrase", async () => {
    const first = await chat(server.url, { conversationId: "demo-titled", text: "write 30 words about rivers" });
    expect(first.response.status).toBe(200);
    expect(await titleOf(server, "demo-titled")).toBe("Write 30 words about rivers");
    await chat(server.url, { conversationId: "demo-titled", text: "what time is it?" });
    expect(await titleOf(server, "demo-titled")).toBe("Write 30 words about rivers");
  });
});
