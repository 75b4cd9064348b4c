// NUL (U+0000) in every text field a person, an import or a model controls, on SQLite and (with TEST_POSTGRES_URL)
// PostgreSQL, which cannot store it: a request holding one is refused with a 400 naming the field and changes nothing
// (on PostgreSQL it answered 500 and could leave an empty conversation); a model's NUL (in its text or a tool's
// arguments) is dropped and the reply kept (on PostgreSQL it wiped the whole reply).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AppServer, providerEnv, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import { type OpenAIFake, startOpenAIFake } from "../support/openai-fake.ts";
import {
  type ConversationView,
  databaseKinds,
  expectApiError,
  jsonRequest,
  messageText,
  userMessage,
} from "./helpers.ts";

const kinds = databaseKinds("nul");
const NUL = "bad\u0000text";
// The first half of an emoji alone (a client that cut a string in the middle of one): JSON carries it as "\ud83d".
const LONE = "cut \ud83d here";
const REPLACED = "cut \ufffd here";

describe.each(kinds)("$name: NUL characters", ({ databaseUrl }) => {
  let fake: OpenAIFake;
  let server: AppServer;
  const api = (path: string) => `${server.url}/api${path}`;

  beforeAll(async () => {
    fake = await startOpenAIFake();
    server = await startAppServer({ env: providerEnv(fake.url), databaseUrl: await databaseUrl() });
    fake.enqueue({ text: "Fine." });
    expect((await chat(server.url, { conversationId: "nul-base", text: "hello" })).response.status).toBe(200);
    expect((await fetch(api("/workspaces"), jsonRequest("POST", { name: "NUL base" }))).status).toBe(201);
  });
  afterAll(async () => {
    await server?.stop();
    await fake?.close();
  });

  const workspaceId = async () =>
    (await getJson<Array<{ id: string; name: string }>>(api("/workspaces"))).body.find((w) => w.name === "NUL base")!
      .id;

  const cases: Array<{ what: string; field: string; send: (ws: string) => Promise<Response> }> = [
    {
      what: "a chat message",
      field: "message.parts.0.text",
      send: () => fetch(api("/chat"), jsonRequest("POST", { id: "nul-new", message: userMessage("nul-m", NUL) })),
    },
    {
      what: "a title",
      field: "title",
      send: () => fetch(api("/conversations/nul-base"), jsonRequest("PATCH", { title: NUL })),
    },
    {
      what: "a settings string",
      field: "settings.prompt.instructions",
      send: () =>
        fetch(api("/conversations/nul-base"), jsonRequest("PATCH", { settings: { prompt: { instructions: NUL } } })),
    },
    {
      what: "a plan",
      field: "plan.content",
      send: () => fetch(api("/conversations/nul-base"), jsonRequest("PATCH", { plan: { content: NUL } })),
    },
    {
      what: "a task subject",
      field: "subject",
      send: () => fetch(api("/conversations/nul-base/tasks"), jsonRequest("POST", { subject: NUL, description: "d" })),
    },
    {
      what: "a task description",
      field: "description",
      send: () => fetch(api("/conversations/nul-base/tasks"), jsonRequest("POST", { subject: "s", description: NUL })),
    },
    {
      what: "task metadata",
      field: "metadata.note",
      send: () =>
        fetch(
          api("/conversations/nul-base/tasks"),
          jsonRequest("POST", { subject: "s", description: "d", metadata: { note: NUL } }),
        ),
    },
    {
      what: "a workspace name",
      field: "name",
      send: () => fetch(api("/workspaces"), jsonRequest("POST", { name: NUL })),
    },
    {
      what: "workspace instructions",
      field: "instructions",
      send: (ws) => fetch(api(`/workspaces/${ws}`), jsonRequest("PATCH", { instructions: NUL })),
    },
    {
      what: "the memory text",
      field: "memory",
      send: (ws) => fetch(api(`/workspaces/${ws}`), jsonRequest("PATCH", { memory: NUL })),
    },
    {
      what: "a memory entry",
      field: "text",
      send: (ws) => fetch(api(`/workspaces/${ws}/memory`), jsonRequest("POST", { text: NUL })),
    },
    {
      what: "a skill description",
      field: "description",
      send: (ws) =>
        fetch(
          api(`/workspaces/${ws}/skills`),
          jsonRequest("POST", { name: "nul-skill", description: NUL, instructions: "i" }),
        ),
    },
    {
      what: "skill instructions",
      field: "instructions",
      send: (ws) =>
        fetch(
          api(`/workspaces/${ws}/skills`),
          jsonRequest("POST", { name: "nul-skill", description: "d", instructions: NUL }),
        ),
    },
    {
      what: "an imported message",
      field: "conversation.messages.0.parts.0.text",
      send: () =>
        fetch(
          api("/conversations/import"),
          jsonRequest("POST", { version: 1, conversation: { id: "nul-import", messages: [userMessage("i1", NUL)] } }),
        ),
    },
    {
      what: "an imported title",
      field: "conversation.title",
      send: () =>
        fetch(
          api("/conversations/import"),
          jsonRequest("POST", { version: 1, conversation: { id: "nul-import", title: NUL, messages: [] } }),
        ),
    },
  ];

  it.each(cases)("refuses $what holding a NUL with a 400 naming $field, changing nothing", async ({ field, send }) => {
    const ws = await workspaceId();
    const before = JSON.stringify([
      (await getJson(api("/conversations/nul-base"))).body,
      (await getJson(api("/conversations/nul-base/tasks"))).body,
      (await getJson(api(`/workspaces/${ws}`))).body,
      (await getJson(api(`/workspaces/${ws}/skills`))).body,
      (await getJson(api("/workspaces"))).body,
    ]);
    const message = await expectApiError(await send(ws), 400, "bad_request");
    expect(message).toContain(field);
    expect(message).toMatch(/NUL/);
    const after = JSON.stringify([
      (await getJson(api("/conversations/nul-base"))).body,
      (await getJson(api("/conversations/nul-base/tasks"))).body,
      (await getJson(api(`/workspaces/${ws}`))).body,
      (await getJson(api(`/workspaces/${ws}/skills`))).body,
      (await getJson(api("/workspaces"))).body,
    ]);
    expect(after).toBe(before);
    expect((await fetch(api("/conversations/nul-new"))).status).toBe(404);
    expect((await fetch(api("/conversations/nul-import"))).status).toBe(404);
  });

  it("refuses a knowledge path or file holding a NUL", async () => {
    const put = (path: string, body: string) =>
      fetch(api(`/workspaces/default/knowledge/${path}`), {
        method: "PUT",
        headers: { "content-type": "text/plain" },
        body,
      });
    expect(await expectApiError(await put("a%00b.md", "x"), 400, "bad_request")).toMatch(/NUL/);
    expect(await expectApiError(await put("a.md", NUL), 400, "bad_request")).toMatch(/NUL/);
  });

  it("keeps a reply whose text and tool arguments held a NUL, without it", async () => {
    fake.reset();
    fake.enqueue(
      {
        kind: "tools",
        calls: [
          { id: "t1", name: "TaskCreate", arguments: { subject: "Nul\u0000task", description: "with\u0000nul" } },
        ],
        text: "Making\u0000 a task.",
      },
      { text: "Done\u0000 now." },
    );
    const { response } = await chat(server.url, { conversationId: "nul-model", text: "make a task" });
    expect(response.status).toBe(200);
    const view = (await getJson<ConversationView>(api("/conversations/nul-model"))).body;
    const reply = view.messages.at(-1)!;
    expect(reply.metadata?.status ?? "complete").not.toBe("error");
    expect(messageText(reply)).toContain("Done now.");
    expect(JSON.stringify(view)).not.toContain("\\u0000");
    const tasks = (
      await getJson<Array<{ subject: string; description: string }>>(api("/conversations/nul-model/tasks"))
    ).body;
    expect(tasks.map((t) => [t.subject, t.description])).toEqual([["Nultask", "withnul"]]);
  });

  it("stores a lone surrogate in chat, import, title, task and workspace text as U+FFFD (PostgreSQL answered 500)", async () => {
    const ws = await workspaceId();
    fake.reset();
    fake.enqueue({ text: "Fine." });
    expect((await chat(server.url, { conversationId: "lone-chat", text: LONE })).response.status).toBe(200);
    const imported = await fetch(
      api("/conversations/import"),
      jsonRequest("POST", {
        version: 1,
        conversation: { id: "lone-import", title: LONE, messages: [userMessage("li", LONE)] },
      }),
    );
    expect(imported.status).toBe(201);
    const statuses = [
      (await fetch(api("/conversations/lone-chat"), jsonRequest("PATCH", { title: LONE }))).status,
      (
        await fetch(
          api("/conversations/lone-chat/tasks"),
          jsonRequest("POST", { subject: LONE, description: LONE, metadata: { note: LONE } }),
        )
      ).status,
      (await fetch(api(`/workspaces/${ws}`), jsonRequest("PATCH", { instructions: LONE }))).status,
      (await fetch(api(`/workspaces/${ws}/memory`), jsonRequest("POST", { text: LONE }))).status,
    ];
    expect(statuses).toEqual([200, 201, 200, 201]);
    const chatted = (await getJson<ConversationView>(api("/conversations/lone-chat"))).body;
    const importedView = (await getJson<ConversationView>(api("/conversations/lone-import"))).body;
    const tasks = (
      await getJson<Array<{ subject: string; description: string; metadata: { note: string } }>>(
        api("/conversations/lone-chat/tasks"),
      )
    ).body;
    const workspace = (await getJson<{ instructions: string; memory: string }>(api(`/workspaces/${ws}`))).body;
    expect({
      chat: messageText(chatted.messages[0]!),
      title: chatted.title,
      imported: [importedView.title, messageText(importedView.messages[0]!)],
      task: [tasks[0]!.subject, tasks[0]!.description, tasks[0]!.metadata.note],
      instructions: workspace.instructions,
      memory: workspace.memory.includes(REPLACED),
    }).toEqual({
      chat: REPLACED,
      title: REPLACED,
      imported: [REPLACED, REPLACED],
      task: [REPLACED, REPLACED, REPLACED],
      instructions: REPLACED,
      memory: true,
    });
    // The model was sent the same text.
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain(REPLACED);
  });

  it("keeps a reply whose text and tool arguments held a lone surrogate, with U+FFFD in its place", async () => {
    fake.reset();
    fake.enqueue(
      {
        kind: "tools",
        calls: [
          {
            id: "t1",
            name: "TaskCreate",
            arguments: { subject: "Lone \udc00 task", description: "d", metadata: { note: "\ud800" } },
          },
        ],
        text: "Making \ud83d a task.",
      },
      { text: "Done \ud83d now." },
    );
    const { response } = await chat(server.url, { conversationId: "lone-model", text: "make a task" });
    expect(response.status).toBe(200);
    const view = (await getJson<ConversationView>(api("/conversations/lone-model"))).body;
    const reply = view.messages.at(-1)!;
    expect(reply.metadata?.status ?? "complete").not.toBe("error");
    expect(messageText(reply)).toContain("Done \ufffd now.");
    const tasks = (
      await getJson<Array<{ subject: string; metadata: { note?: string } }>>(api("/conversations/lone-model/tasks"))
    ).body;
    expect(tasks.map((t) => [t.subject, t.metadata.note])).toEqual([["Lone \ufffd task", "\ufffd"]]);
  });
});
