// The conversation routes (list, get, rename, settings, delete, export/import) and a table of bad requests, each of
// which must answer a documented 4xx error and change nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import {
  type ApiMessage,
  type ConversationSummary,
  type ConversationView,
  expectApiError,
  jsonRequest,
  userMessage,
} from "./helpers.ts";

let server: AppServer;

beforeAll(async () => {
  server = await startAppServer();
});

afterAll(async () => {
  await server?.stop();
});

const api = (path: string, init?: RequestInit) => fetch(`${server.url}${path}`, init);

async function view(id: string): Promise<ConversationView> {
  const { status, body } = await getJson<ConversationView>(`${server.url}/api/conversations/${id}`);
  expect(status).toBe(200);
  return body;
}

async function list(): Promise<ConversationSummary[]> {
  const { status, body } = await getJson<ConversationSummary[]>(`${server.url}/api/conversations`);
  expect(status).toBe(200);
  return body;
}

async function startConversation(id: string, ...texts: string[]) {
  for (const text of texts) expect((await chat(server.url, { conversationId: id, text })).response.status).toBe(200);
}

describe("conversation routes", () => {
  it("lists, reads, renames and deletes conversations", async () => {
    await startConversation("crud-a", "first chat");
    await startConversation("crud-b", "second chat");
    const ids = (await list()).map((c) => c.id);
    expect(ids.indexOf("crud-b")).toBeLessThan(ids.indexOf("crud-a"));
    expect(ids.indexOf("crud-a")).toBeGreaterThanOrEqual(0);

    const renamed = await api("/api/conversations/crud-a", jsonRequest("PATCH", { title: "Renamed" }));
    expect(renamed.status).toBe(200);
    expect((await view("crud-a")).title).toBe("Renamed");
    expect((await list()).find((c) => c.id === "crud-a")?.title).toBe("Renamed");

    const deleted = await api("/api/conversations/crud-a", { method: "DELETE" });
    expect(deleted.status).toBe(204);
    expect(await deleted.text()).toBe("");
    await expectApiError(await api("/api/conversations/crud-a"), 404, "not_found");
    await expectApiError(await api("/api/conversations/crud-a", { method: "DELETE" }), 404, "not_found");
    expect((await list()).map((c) => c.id)).not.toContain("crud-a");
    expect((await view("crud-b")).messages).toHaveLength(2);
  });

  it("merges settings patches into the stored settings and keeps the other defaults", async () => {
    await startConversation("settings", "hello");
    const defaults = (await view("settings")).settings;
    const first = await api("/api/conversations/settings", jsonRequest("PATCH", { settings: { injection: { timeInterval: 2 } } }));
    expect(first.status).toBe(200);
    expect((await view("settings")).settings).toEqual({ ...defaults, injection: { ...defaults.injection, timeInterval: 2 } });

    const second = await api("/api/conversations/settings", jsonRequest("PATCH", { settings: { context: { triggerRatio: 0.7 } } }));
    expect(second.status).toBe(200);
    const merged = (await view("settings")).settings;
    expect(merged.injection.timeInterval).toBe(2);
    expect(merged.context).toEqual({ ...defaults.context, triggerRatio: 0.7 });
  });

  it.each([
    ["an unknown timezone", { injection: { timezone: "Mars/Olympus" } }, /injection\.timezone/],
    ["a template without {runtime_state}", { injection: { template: "no placeholder here" } }, /injection\.template/],
    ["a buffer ratio at the trigger ratio", { injection: { contextBufferRatio: 0.85 } }, /injection\.contextBufferRatio/],
    ["a reserve ratio over the trigger ratio", { context: { reserveRatio: 0.9 } }, /context\.reserveRatio/],
    ["a time format without a date", { injection: { timeFormat: "HH:mm" } }, /injection\.timeFormat/],
    ["an extra field with a bad key", { injection: { extraFields: { "bad key": "x" } } }, /injection\.extraFields/],
    ["an unknown injection field", { injection: { colour: "red" } }, /colour/],
    ["an unknown section", { theme: { dark: true } }, /theme/],
  ])("rejects %s with a 400 naming the field and keeps the stored settings", async (_name, settings, field) => {
    const before = await view("settings");
    const message = await expectApiError(
      await api("/api/conversations/settings", jsonRequest("PATCH", { settings })),
      400,
      "bad_request",
    );
    expect(message).toMatch(field);
    expect((await view("settings")).settings).toEqual(before.settings);
  });

  it("exports and imports a conversation with its messages, parts and title", async () => {
    await startConversation("export-src", "write 12 words about rivers", "write 4 words about rain");
    await api("/api/conversations/export-src", jsonRequest("PATCH", { title: "Exported chat", settings: { injection: { timeInterval: 3 } } }));
    const exported = await api("/api/conversations/export-src/export");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(/attachment/);
    const file = (await exported.json()) as { version: number; conversation: { id: string } };
    expect(file.version).toBe(1);
    expect(file.conversation.id).toBe("export-src");
    const countBefore = (await list()).length;

    const imported = await api("/api/conversations/import", jsonRequest("POST", file));
    expect(imported.status).toBe(201);
    const { id } = (await imported.json()) as { id: string };
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(id).not.toBe("export-src");
    expect(await list()).toHaveLength(countBefore + 1);

    const original = await view("export-src");
    const copy = await view(id);
    const comparable = ({ id, role, parts, metadata }: ApiMessage) => {
      const { createdAt: _createdAt, ...rest } = metadata ?? {};
      return { id, role, parts, metadata: rest };
    };
    expect(copy.title).toBe("Exported chat");
    expect(copy.settings).toEqual(original.settings);
    expect(copy.messages).toHaveLength(4);
    expect(copy.messages.map(comparable)).toEqual(original.messages.map(comparable));

    const freeId = await api("/api/conversations/import", jsonRequest("POST", { ...file, conversation: { ...file.conversation, id: "export-free" } }));
    expect(freeId.status).toBe(201);
    expect(await freeId.json()).toEqual({ id: "export-free" });
    expect((await view("export-free")).messages.map(comparable)).toEqual(original.messages.map(comparable));
  });

  const conversationWith = (fields: object) => ({ version: 1, conversation: { messages: [], ...fields } });
  it.each([
    ["not JSON", '{"version": 1,'],
    ["no version", { conversation: { messages: [] } }],
    ["a future version", { version: 2, conversation: { messages: [] } }],
    ["messages not an array", conversationWith({ messages: "hello" })],
    ["a system message", conversationWith({ messages: [{ id: "a", role: "system", parts: [] }] })],
    ["duplicate message ids", conversationWith({ messages: [userMessage("a", "x"), userMessage("a", "y")] })],
    ["a message id with a slash", conversationWith({ messages: [userMessage("a/b", "x")] })],
    ["a conversation id of ..", conversationWith({ id: ".." })],
    ["invalid settings", conversationWith({ settings: { injection: { timezone: "Mars/Olympus" } } })],
    ["a malformed task", conversationWith({ tasks: [{ id: "one", subject: "x", status: "pending" }] })],
  ])("rejects an import with %s and creates nothing", async (_name, body) => {
    const before = await list();
    const code = typeof body === "string" ? "invalid_json" : "bad_request";
    await expectApiError(await api("/api/conversations/import", jsonRequest("POST", body)), 400, code);
    expect(await list()).toEqual(before);
  });
});

describe("bad requests change nothing", () => {
  let replyId = "";

  beforeAll(async () => {
    const { chunks } = await chat(server.url, { conversationId: "target", messageId: "t1", text: "hello" });
    replyId = chunks.find((c) => c.type === "start")?.messageId as string;
  });

  const chatBody = (message: object, id = "target") => JSON.stringify({ id, message: { ...userMessage("m-bad", "hi"), ...message } });
  type Case = { name: string; method: string; path: string; body?: () => string; status: number; code: string };
  const chatCase = (name: string, body: () => string, status = 400, code = "bad_request"): Case => ({
    name: `POST /api/chat with ${name}`,
    method: "POST",
    path: "/api/chat",
    body,
    status,
    code,
  });
  const cases: Case[] = [
    chatCase("malformed JSON", () => '{"id": "target", "message": {', 400, "invalid_json"),
    chatCase("an empty body", () => "", 400, "invalid_json"),
    chatCase("no message", () => JSON.stringify({ id: "target" })),
    chatCase("role assistant", () => chatBody({ role: "assistant" })),
    chatCase("role system", () => chatBody({ role: "system" })),
    chatCase("role assistant in a new conversation", () => chatBody({ role: "assistant" }, "brand-new")),
    chatCase("parts not an array", () => chatBody({ parts: { type: "text", text: "hi" } })),
    chatCase("a file part", () => chatBody({ parts: [{ type: "file", url: "data:text/plain,hi", mediaType: "text/plain" }] })),
    chatCase("a text and a reasoning part", () => chatBody({ parts: [{ type: "text", text: "hi" }, { type: "reasoning", text: "x" }] })),
    chatCase("empty text", () => chatBody({ parts: [{ type: "text", text: "" }] })),
    chatCase("blank text", () => chatBody({ parts: [{ type: "text", text: "  \n " }] })),
    chatCase("a conversation id with a slash", () => chatBody({}, "a/b")),
    chatCase("a conversation id of ..", () => chatBody({}, "..")),
    chatCase("a message id with ..", () => chatBody({ id: "../t1" })),
    chatCase("a conversation id of 65 characters", () => chatBody({}, "a".repeat(65))),
    chatCase("a message id of 65 characters", () => chatBody({ id: "m".repeat(65) })),
    chatCase("a 150 KB body", () => chatBody({ parts: [{ type: "text", text: "x".repeat(150_000) }] }), 413, "payload_too_large"),
    chatCase("the id of a reply as the message id", () => chatBody({ id: replyId }), 409, "conflict"),
    { name: "GET an unknown conversation", method: "GET", path: "/api/conversations/nope", status: 404, code: "not_found" },
    { name: "PATCH an unknown conversation", method: "PATCH", path: "/api/conversations/nope", body: () => '{"title":"x"}', status: 404, code: "not_found" },
    { name: "DELETE an unknown conversation", method: "DELETE", path: "/api/conversations/nope", status: 404, code: "not_found" },
    { name: "export an unknown conversation", method: "GET", path: "/api/conversations/nope/export", status: 404, code: "not_found" },
    { name: "GET an id with a slash", method: "GET", path: "/api/conversations/a%2Fb", status: 400, code: "bad_request" },
    { name: "DELETE an id with ../", method: "DELETE", path: "/api/conversations/%2E%2E%2Ftarget", status: 400, code: "bad_request" },
    { name: "GET an id of 65 characters", method: "GET", path: `/api/conversations/${"a".repeat(65)}`, status: 400, code: "bad_request" },
    { name: "PATCH an empty title", method: "PATCH", path: "/api/conversations/target", body: () => '{"title":""}', status: 400, code: "bad_request" },
    { name: "PATCH a blank title", method: "PATCH", path: "/api/conversations/target", body: () => '{"title":"   "}', status: 400, code: "bad_request" },
    { name: "PATCH with no fields", method: "PATCH", path: "/api/conversations/target", body: () => "{}", status: 400, code: "bad_request" },
    { name: "PATCH an unknown field", method: "PATCH", path: "/api/conversations/target", body: () => '{"colour":"red"}', status: 400, code: "bad_request" },
    { name: "PATCH malformed JSON", method: "PATCH", path: "/api/conversations/target", body: () => '{"title":', status: 400, code: "invalid_json" },
  ];

  it.each(cases)("$name → $status $code", async ({ method, path, body, status, code }) => {
    const before = { list: await list(), target: await view("target") };
    expect(before.target.messages).toHaveLength(2);
    const init: RequestInit = body ? jsonRequest(method, body()) : { method };
    await expectApiError(await api(path, init), status, code);
    expect({ list: await list(), target: await view("target") }).toEqual(before);
  });
});
