// The conversation routes (list, get, rename, settings, delete, export/import, tool results as data or as older
// text). Their bad requests are in hostile-input.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { summarizeTool } from "@/components/chat/tool-summary";
import { type AppServer, startAppServer } from "../support/app-server.ts";
import { chat, getJson } from "../support/chat-client.ts";
import {
  type ApiMessage,
  type ApiPart,
  type ConversationSummary,
  type ConversationView,
  expectApiError,
  jsonRequest,
  messageText,
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
    const first = await api(
      "/api/conversations/settings",
      jsonRequest("PATCH", { settings: { injection: { timeInterval: 2 } } }),
    );
    expect(first.status).toBe(200);
    expect((await view("settings")).settings).toEqual({
      ...defaults,
      injection: { ...defaults.injection, timeInterval: 2 },
    });

    const second = await api(
      "/api/conversations/settings",
      jsonRequest("PATCH", { settings: { context: { triggerRatio: 0.7 } } }),
    );
    expect(second.status).toBe(200);
    const merged = (await view("settings")).settings;
    expect(merged.injection.timeInterval).toBe(2);
    expect(merged.context).toEqual({ ...defaults.context, triggerRatio: 0.7 });
  });

  it("exports and imports a conversation with its messages, parts and title", async () => {
    await startConversation("export-src", "write 12 words about rivers", "write 4 words about rain");
    await api(
      "/api/conversations/export-src",
      jsonRequest("PATCH", { title: "Exported chat", settings: { injection: { timeInterval: 3 } } }),
    );
    const exported = await api("/api/conversations/export-src/export");
    expect(exported.status).toBe(200);
    expect(exported.headers.get("content-disposition")).toMatch(/attachment/);
    const file = (await exported.json()) as { version: number; conversation: { id: string } };
    expect(file.version).toBe(1);
    expect(file.conversation.id).toBe("export-src");
    const countBefore = (await list()).length;

    const imported = await api("/api/conversations/import?settings=apply", jsonRequest("POST", file));
    expect(imported.status).toBe(201);
    const { id } = (await imported.json()) as { id: string };
    expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
    expect(id).not.toBe("export-src");
    expect(await list()).toHaveLength(countBefore + 1);

    const original = await view("export-src");
    const copy = await view(id);
    // Imported hints are the same hints, marked as imported (shown, never sent to the model).
    const unmarked = (part: ApiPart) => {
      if (part.type !== "data-hint") return part;
      const { imported: _imported, ...data } = part.data as Record<string, unknown>;
      return { ...part, data };
    };
    const comparable = ({ id, role, parts, metadata }: ApiMessage) => {
      const { createdAt: _createdAt, ...rest } = metadata ?? {};
      return { id, role, parts: parts.map(unmarked), metadata: rest };
    };
    const copiedHints = copy.messages.flatMap((m) => m.parts).filter((p) => p.type === "data-hint");
    expect(copiedHints.length).toBeGreaterThan(0);
    for (const hint of copiedHints) expect(hint.data).toMatchObject({ imported: true });
    expect(copy.title).toBe("Exported chat");
    expect(copy.settings).toEqual(original.settings);
    expect(copy.messages).toHaveLength(4);
    expect(copy.messages.map(comparable)).toEqual(original.messages.map(comparable));

    const freeId = await api(
      "/api/conversations/import",
      jsonRequest("POST", { ...file, conversation: { ...file.conversation, id: "export-free" } }),
    );
    expect(freeId.status).toBe(201);
    expect(await freeId.json()).toEqual({ id: "export-free" });
    expect((await view("export-free")).messages.map(comparable)).toEqual(original.messages.map(comparable));
    // Without ?settings=apply the file's settings are not applied.
    expect((await view("export-free")).settings.injection.timeInterval).toBe(0.5);

    // The conversation goes on after the imported messages.
    const next = await chat(server.url, { conversationId: "export-free", text: "write 3 words about snow" });
    expect(next.response.status).toBe(200);
    const continued = await view("export-free");
    expect(continued.messages.map((m) => m.role)).toEqual([
      "user",
      "assistant",
      "user",
      "assistant",
      "user",
      "assistant",
    ]);
    expect(messageText(continued.messages[4])).toBe("write 3 words about snow");
  });

  it("exports tool results as data, and an import of them, or of the same results as text, gives the same model input", async () => {
    await startConversation("tools-src", "add tasks: draft the outline; review it", "start 1", "what's left?");
    const file = (await (await api("/api/conversations/tools-src/export")).json()) as {
      version: number;
      conversation: { messages: ApiMessage[] };
    };
    const results = file.conversation.messages.flatMap((m) => m.parts).filter((p) => p.type.startsWith("tool-Task"));
    expect(results.map((p) => p.type)).toEqual([
      "tool-TaskCreate",
      "tool-TaskCreate",
      "tool-TaskUpdate",
      "tool-TaskList",
    ]);
    expect(results[0]!.output).toEqual({
      tool: "TaskCreate",
      taskId: "1",
      subject: "draft the outline",
      text: expect.stringMatching(/^Task \(id=1\) created successfully: draft the outline\n/),
    });
    // What an export held before tools returned data: each result as its text.
    const asText = (part: ApiPart) =>
      part.type.startsWith("tool-Task") ? { ...part, output: (part.output as { text: string }).text } : part;
    const older = {
      ...file,
      conversation: {
        ...file.conversation,
        messages: file.conversation.messages.map((m) => ({ ...m, parts: m.parts.map(asText) })),
      },
    };
    for (const [id, body] of [
      ["tools-data", file],
      ["tools-text", older],
    ] as const) {
      expect(
        (
          await api(
            "/api/conversations/import",
            jsonRequest("POST", { ...body, conversation: { ...body.conversation, id } }),
          )
        ).status,
      ).toBe(201);
    }
    // Imported hints are never sent: the input is compared without hints, which is the whole difference.
    const input = async (id: string) =>
      JSON.stringify((await (await api(`/api/conversations/${id}/context?hints=false`)).json()).messages);
    const original = await input("tools-src");
    expect(original).toContain("Task (id=1) created successfully: draft the outline");
    expect(await input("tools-data")).toBe(original);
    expect(await input("tools-text")).toBe(original);
    // The copies hold what their files held, and their rows read the same: from the data, or from the older text.
    const parts = async (id: string) =>
      (await view(id)).messages.flatMap((m) => m.parts).filter((p) => p.type.startsWith("tool-Task"));
    const [data, text] = [await parts("tools-data"), await parts("tools-text")];
    expect(data).toEqual(results);
    expect(text).toEqual(results.map(asText));
    const rows = (list: ApiPart[]) =>
      list.map((p) =>
        summarizeTool({ toolName: p.type.slice(5), state: String(p.state), input: p.input, output: p.output }),
      );
    expect(rows(data)).toEqual([
      "Created task 1 · draft the outline",
      "Created task 2 · review it",
      "Task 1 → In progress",
      "Listed tasks · 2",
    ]);
    expect(rows(text)).toEqual(rows(data));
  });
});
