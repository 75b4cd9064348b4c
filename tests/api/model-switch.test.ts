// Switching a conversation's model, through the real server and the OpenAI fake, on SQLite and (with
// TEST_POSTGRES_URL) PostgreSQL: a new conversation takes the model chosen before its first message, export carries
// the conversation's model and import restores it (validated), and a switch to a model whose window the history no
// longer fits compresses before the next call. Two models of different windows from the window table: gpt-4o-mini
// (128,000 tokens) and gpt-4 (8,192).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import { type ApiMessage, countRows, databaseKinds, expectApiError, jsonRequest } from "./helpers.ts";

type WireMessage = { role: string; content: unknown };
type ModelInfo = { id: string; contextWindow: number };
type View = {
  model: ModelInfo;
  messages: ApiMessage[];
  contextUsage: { inputTokens: number; contextWindow: number; triggerTokens: number };
};
const text = (m: WireMessage | undefined) =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");
const isSummaryCall = (messages: WireMessage[]) => text(messages.at(-1)).startsWith("Summarize the conversation below");
const words = (n: number, seed: string) => Array.from({ length: n }, (_, i) => `${seed}${i % 7} river`).join(" ");
const SUMMARY =
  "## Task Overview\nRivers.\n## Current State\nWriting.\n## Important Discoveries\nNone.\n## Next Steps\nGo on.\n## Context to Preserve\nNone.";

describe.each(databaseKinds("model-switch"))("$name: switching the model", ({ databaseUrl }) => {
  let fake: OpenAIFake;
  let server: AppServer;
  let dbUrl: string;
  beforeAll(async () => {
    fake = await startOpenAIFake();
    server = await startAppServer({
      env: { ...providerEnv(fake.url), HINTLINE_MODEL: "gpt-4o-mini" },
      databaseUrl: await databaseUrl(),
    });
    dbUrl = server.databaseUrl;
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });
  const url = (id: string, rest = "") => `${server.url}/api/conversations/${id}${rest}`;
  const post = (body: Record<string, unknown>) => fetch(`${server.url}/api/chat`, jsonRequest("POST", body));
  const message = (t: string) => ({
    id: `m${Math.random().toString(36).slice(2, 10)}`,
    role: "user",
    parts: [{ type: "text", text: t }],
  });

  it("a new conversation takes the model chosen before its first message; an existing one keeps its own", async () => {
    const id = `pick-new-${Date.now()}`;
    fake.reset();
    fake.enqueue({ text: "Small window here." });
    const response = await post({ id, message: message("hello"), model: "gpt-4" });
    expect(response.status).toBe(200);
    await response.text();
    expect(fake.requests.at(-1)!.body.model).toBe("gpt-4");
    const { body } = await getJson<View>(url(id));
    expect(body.model).toMatchObject({ id: "gpt-4", contextWindow: 8_192 });
    expect(body.messages.at(-1)!.metadata?.model).toBe("gpt-4");

    // Only the message that creates the conversation chooses: later ones keep the stored model (PATCH switches it).
    fake.enqueue({ text: "Still small." });
    await (await post({ id, message: message("again"), model: "gpt-4o-mini" })).text();
    expect(fake.requests.at(-1)!.body.model).toBe("gpt-4");
  });

  it("refuses a first message naming a model this server cannot use, with a 400 naming the field, and creates nothing", async () => {
    const id = `pick-bad-${Date.now()}`;
    const before = fake.requests.length;
    const unusable = await expectApiError(
      await post({ id, message: message("hello"), model: "anthropic/claude-sonnet-4-5" }),
      400,
      "bad_request",
    );
    expect(unusable).toMatch(/model.*ANTHROPIC_API_KEY/s);
    await expectApiError(await post({ id, message: message("hello"), model: "has space" }), 400, "bad_request");
    expect(fake.requests.length).toBe(before);
    expect((await fetch(url(id))).status).toBe(404);
    expect(await countRows(dbUrl, "Conversation", "id", id)).toBe(0);
  });

  it("export carries the conversation's model and every reply's; import restores them, and refuses a model it cannot use", async () => {
    const id = `pick-export-${Date.now()}`;
    fake.reset();
    fake.setDefault({ text: "ok" });
    await chat(server.url, { conversationId: id, text: "one" });
    expect((await fetch(url(id), jsonRequest("PATCH", { model: "gpt-4" }))).status).toBe(200);
    await chat(server.url, { conversationId: id, text: "two" });
    const exported = (await getJson<{ conversation: { model?: string; messages: ApiMessage[] } }>(url(id, "/export")))
      .body;
    expect(exported.conversation.model).toBe("gpt-4");
    expect(exported.conversation.messages.filter((m) => m.role === "assistant").map((m) => m.metadata?.model)).toEqual([
      "gpt-4o-mini",
      "gpt-4",
    ]);

    const importUrl = `${server.url}/api/conversations/import`;
    const copy = { ...exported, conversation: { ...exported.conversation, id: undefined } };
    const imported = await fetch(importUrl, jsonRequest("POST", copy));
    expect(imported.status).toBe(201);
    const { id: newId } = (await imported.json()) as { id: string };
    const view = (await getJson<View>(url(newId))).body;
    expect(view.model.id).toBe("gpt-4");
    expect(view.messages.filter((m) => m.role === "assistant").map((m) => m.metadata?.model)).toEqual([
      "gpt-4o-mini",
      "gpt-4",
    ]);
    // The next reply uses the imported model.
    await chat(server.url, { conversationId: newId, text: "three" });
    expect(fake.requests.at(-1)!.body.model).toBe("gpt-4");

    // Without a model (an export from before models could be chosen) the import takes the default.
    const { model: _m, ...withoutModel } = copy.conversation;
    const old = await fetch(importUrl, jsonRequest("POST", { ...copy, conversation: withoutModel }));
    expect(old.status).toBe(201);
    expect((await getJson<View>(url(((await old.json()) as { id: string }).id))).body.model.id).toBe("gpt-4o-mini");

    // A model this server cannot use, or no model id at all, is refused naming the field; nothing is imported.
    const badId = `pick-import-bad-${Date.now()}`;
    for (const model of ["google/gemini-2.5-pro", "two words", 42]) {
      const refused = await expectApiError(
        await fetch(
          importUrl,
          jsonRequest("POST", { ...copy, conversation: { ...copy.conversation, id: badId, model } }),
        ),
        400,
        "bad_request",
      );
      expect(refused).toContain("conversation.model");
    }
    expect(await countRows(dbUrl, "Conversation", "id", badId)).toBe(0);
  });

  it("switching to a model whose window the history no longer fits compresses before the next call", async () => {
    const id = `pick-shrink-${Date.now()}`;
    fake.reset();
    fake.setDefault((req) =>
      isSummaryCall(req.body.messages as WireMessage[]) ? { text: SUMMARY } : { text: words(450, "w") },
    );
    // About 8,000 tokens of history: nothing on gpt-4o-mini's 128,000-token window, past gpt-4's trigger.
    for (let turn = 0; turn < 6; turn++) {
      const { chunks } = await chat(server.url, { conversationId: id, text: `turn ${turn}: more please` });
      expect(chunks.some((c) => c.type === "data-compression")).toBe(false);
    }
    const before = (await getJson<View>(url(id))).body.contextUsage;
    expect(before.contextWindow).toBe(128_000);

    const switched = await getJson<View>(url(id), jsonRequest("PATCH", { model: "gpt-4" }));
    expect(switched.status).toBe(200);
    // The meter follows the new window at once: the history is past its trigger.
    expect(switched.body.contextUsage.contextWindow).toBe(8_192);
    expect(switched.body.contextUsage.inputTokens).toBeGreaterThan(switched.body.contextUsage.triggerTokens);

    const callsBefore = fake.requests.length;
    fake.setDefault((req) =>
      isSummaryCall(req.body.messages as WireMessage[]) ? { text: SUMMARY } : { text: "Short now." },
    );
    const { chunks, text: reply } = await chat(server.url, { conversationId: id, text: "and now?" });
    expect(reply).toBe("Short now.");
    expect(chunks.some((c) => c.type === "data-compression")).toBe(true);
    const calls = fake.requests.slice(callsBefore);
    // The summary first, then the reply's call on the new model with the summary instead of the long history.
    const summaryAt = calls.findIndex((r) => isSummaryCall(r.body.messages as WireMessage[]));
    expect(summaryAt).toBeGreaterThanOrEqual(0);
    const replyCall = calls.at(-1)!;
    expect(calls.indexOf(replyCall)).toBeGreaterThan(summaryAt);
    expect(replyCall.body.model).toBe("gpt-4");
    const sent = replyCall.body.messages as WireMessage[];
    expect(text(sent[1])).toMatch(/^<conversation-summary>/);
    expect(sent.map(text).join("\n").length).toBeLessThan(8_192 * 4);
    const after = (await getJson<View>(url(id))).body.contextUsage;
    expect(after.inputTokens).toBeLessThan(after.triggerTokens);
  });
});
