// Runs twice: on a fresh SQLite file and on a fresh PostgreSQL database (vitest projects db-sqlite / db-postgres).
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ChatMessage } from "@/lib/chat-message";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb, getDb } = await import("@/lib/db/client");
const conversations = await import("@/lib/db/conversations");
const messages = await import("@/lib/db/messages");
const { exportConversation, importConversation } = await import("@/lib/chat/conversation-view");
const mcpTools = await import("@/lib/db/conversation-mcp-tools");

let seq = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;
const userMessage = (id: string, text: string): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
  metadata: {},
});

beforeAll(async () => {
  await getDb();
});
afterAll(async () => {
  await disconnectDb();
});

describe(`persistence on ${inject("databaseKind")}`, () => {
  it("stores a conversation with its settings and lists newest first", async () => {
    const a = newId("a");
    const b = newId("b");
    await conversations.ensureConversation({ id: a, settings: { injection: { timezone: "Europe/Berlin" } } });
    await new Promise((r) => setTimeout(r, 5));
    await conversations.ensureConversation({ id: b });
    const list = await conversations.listConversations();
    expect(list.findIndex((c) => c.id === b)).toBeLessThan(list.findIndex((c) => c.id === a));
    expect((await conversations.getConversation({ id: a }))?.settings).toEqual({
      injection: { timezone: "Europe/Berlin" },
    });
    // ensure does not overwrite an existing conversation
    await conversations.ensureConversation({ id: a, settings: { other: true } });
    expect((await conversations.getConversation({ id: a }))?.settings).toEqual({
      injection: { timezone: "Europe/Berlin" },
    });
  });

  it("stores the model a conversation chose, and forgets it again (null: the default)", async () => {
    const id = newId("model");
    await conversations.ensureConversation({ id });
    expect((await conversations.getConversation({ id }))?.model).toBeNull();
    expect(await conversations.setConversationModel({ id, model: "anthropic/claude-sonnet-4-5" })).toBe(true);
    expect((await conversations.getConversation({ id }))?.model).toBe("anthropic/claude-sonnet-4-5");
    expect((await conversations.ensureConversation({ id })).model).toBe("anthropic/claude-sonnet-4-5");
    expect(await conversations.setConversationModel({ id, model: null })).toBe(true);
    expect((await conversations.getConversation({ id }))?.model).toBeNull();
    expect(await conversations.setConversationModel({ id: newId("none"), model: "google/gemini-2.5-pro" })).toBe(false);
  });

  it("keeps message parts as JSON, in order, exactly", async () => {
    const id = newId("c");
    await conversations.ensureConversation({ id });
    const reply: ChatMessage = {
      id: "r1",
      role: "assistant",
      parts: [
        {
          type: "data-hint",
          id: "h1",
          data: {
            source: { label: "System", sublabel: "Runtime State" },
            fields: { timezone: "UTC" },
            text: "<system-reminder>\n<current-time>2026-07-01T12:00:00</current-time>\n</system-reminder>",
            createdAt: "2026-07-01T12:00:00.000Z",
          },
        },
        { type: "step-start" },
        { type: "text", text: 'Grüße 👋 — "quotes" & <tags>', state: "done" },
      ],
      metadata: { model: "m" },
    };
    await messages.appendMessage({ conversationId: id, message: userMessage("u1", "hello") });
    await messages.appendMessage({ conversationId: id, message: reply, status: "streaming" });
    const stored = await messages.listMessages({ conversationId: id });
    expect(stored.map((m) => m.id)).toEqual(["u1", "r1"]);
    expect(stored[1]!.parts).toEqual(reply.parts);
    expect(stored[1]!.metadata).toMatchObject({ model: "m", status: "streaming" });
    await messages.updateMessage({
      conversationId: id,
      id: "r1",
      status: "complete",
      parts: [{ type: "text", text: "final" }],
    });
    const updated = await messages.listMessages({ conversationId: id });
    expect(updated[1]!.parts).toEqual([{ type: "text", text: "final" }]);
    expect(updated[1]!.metadata?.status).toBeUndefined();
  });

  it("gives concurrent appends distinct, gap-free positions", async () => {
    const id = newId("d");
    await conversations.ensureConversation({ id });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        messages.appendMessage({ conversationId: id, message: userMessage(`m${i}`, `n${i}`) }),
      ),
    );
    const db = await getDb();
    const rows = await db.message.findMany({ where: { conversationId: id }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: 12 }, (_, i) => i));
    expect(new Set(rows.map((r) => r.id)).size).toBe(12);
  });

  it("appends a turn in one batch when the counter is as read, and falls back when another write came first", async () => {
    const id = newId("t");
    await conversations.ensureConversation({ id });
    const turn = (n: number, expectedSeq?: number) =>
      messages.appendMessages({
        conversationId: id,
        messages: [
          { message: userMessage(`u${n}`, `q${n}`) },
          { message: userMessage(`r${n}`, `a${n}`), status: "streaming" },
        ],
        title: `T${n}`,
        expectedSeq,
      });
    await turn(0, 0);
    // Stale: the counter is 2 now. Racing turns that all read 2: each lands once, on distinct positions.
    await Promise.all([turn(1, 2), turn(2, 2), turn(3, 2), turn(4, 0)]);
    const db = await getDb();
    const rows = await db.message.findMany({ where: { conversationId: id }, orderBy: { position: "asc" } });
    expect(rows.map((r) => r.position)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(new Set(rows.map((r) => r.id)).size).toBe(10);
    // Each turn's two rows stay together, in order.
    for (let i = 0; i < 10; i += 2) expect(rows[i + 1]!.id).toBe(rows[i]!.id.replace("u", "r"));
    expect((await conversations.getConversation({ id }))?.messageSeq).toBe(10);
  });

  it("fixes a conversation's MCP tool list once: the first list stored wins, and each call answers the stored one", async () => {
    const id = newId("mcp");
    await conversations.ensureConversation({ id });
    const first = [{ name: "a__search", server: "a", tool: "search" }];
    const [one, two] = await Promise.all([
      mcpTools.fixConversationMcpTools({ conversationId: id, data: first }),
      mcpTools.fixConversationMcpTools({ conversationId: id, data: [] }),
    ]);
    const stored = await mcpTools.getConversationMcpTools({ conversationId: id });
    expect([first, []]).toContainEqual(stored);
    expect(one).toEqual(stored);
    expect(two).toEqual(stored);
    expect(await mcpTools.fixConversationMcpTools({ conversationId: id, data: [{ name: "later" }] })).toEqual(stored);
  });

  it("rejects a duplicate message id in the same conversation and allows it in another", async () => {
    const a = newId("e");
    const b = newId("e");
    await conversations.ensureConversation({ id: a });
    await conversations.ensureConversation({ id: b });
    await messages.appendMessage({ conversationId: a, message: userMessage("same", "x") });
    await expect(messages.appendMessage({ conversationId: a, message: userMessage("same", "y") })).rejects.toThrow();
    await expect(
      messages.appendMessage({ conversationId: b, message: userMessage("same", "z") }),
    ).resolves.toBeTruthy();
  });

  it("marks replies left streaming by a dead server as incomplete, sparing active ones", async () => {
    const id = newId("f");
    await conversations.ensureConversation({ id });
    await messages.appendMessage({
      conversationId: id,
      message: { id: "dead", role: "assistant", parts: [] },
      status: "streaming",
    });
    await messages.appendMessage({
      conversationId: id,
      message: { id: "live", role: "assistant", parts: [] },
      status: "streaming",
    });
    await messages.settleStaleReplies({ conversationId: id, activeIds: new Set(["live"]) });
    const stored = await messages.listMessages({ conversationId: id });
    expect(stored.find((m) => m.id === "dead")?.metadata).toMatchObject({
      status: "incomplete",
      error: "The reply was interrupted.",
    });
    expect(stored.find((m) => m.id === "live")?.metadata?.status).toBe("streaming");
  });

  it("deletes a conversation with its messages and tasks", async () => {
    const id = newId("g");
    await conversations.ensureConversation({ id });
    await messages.appendMessage({ conversationId: id, message: userMessage("u", "x") });
    const db = await getDb();
    await db.task.create({
      data: { conversationId: id, id: "1", subject: "s", blocks: [], blockedBy: [], metadata: {}, position: 0 },
    });
    expect(await conversations.deleteConversation({ id })).toBe(true);
    expect(await db.message.count({ where: { conversationId: id } })).toBe(0);
    expect(await db.task.count({ where: { conversationId: id } })).toBe(0);
    expect(await conversations.deleteConversation({ id })).toBe(false);
  });

  it("exports and imports a conversation with its messages and tasks", async () => {
    const id = newId("h");
    await conversations.ensureConversation({ id });
    await conversations.updateConversation({ id, title: "Trip plan" });
    await messages.appendMessage({ conversationId: id, message: userMessage("u1", "plan a trip") });
    await messages.appendMessage({
      conversationId: id,
      message: { id: "a1", role: "assistant", parts: [{ type: "text", text: "Sure" }] },
    });
    const db = await getDb();
    await db.task.create({
      data: {
        conversationId: id,
        id: "1",
        subject: "Book train",
        status: "in_progress",
        blocks: [],
        blockedBy: [],
        metadata: { k: 1 },
        position: 0,
      },
    });
    const exported = await exportConversation(id);
    const body = JSON.parse(JSON.stringify(exported));
    const { id: copyId } = await importConversation(body, () => newId("copy"));
    expect(copyId).not.toBe(id);
    const copy = await exportConversation(copyId);
    expect(copy.conversation.title).toBe("Trip plan");
    expect(copy.conversation.messages.map((m) => [m.id, m.role, m.parts])).toEqual(
      exported.conversation.messages.map((m) => [m.id, m.role, m.parts]),
    );
    expect(copy.conversation.tasks.map((t) => [t.id, t.subject, t.status, t.metadata])).toEqual([
      ["1", "Book train", "in_progress", { k: 1 }],
    ]);
  });
});
