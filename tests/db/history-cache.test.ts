// The in-process history cache against a real database (SQLite and PostgreSQL): what a reply reads from the cache
// is exactly what the database holds, and a change made behind the process's back is noticed.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ChatMessage } from "@/lib/chat-message";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb, getDb } = await import("@/lib/db/client");
const conversations = await import("@/lib/db/conversations");
const messages = await import("@/lib/db/messages");

let seq = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;
const user = (id: string, text: string): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
  metadata: {},
});
const opening = (id: string): ChatMessage => ({ id, role: "assistant", parts: [], metadata: { model: "m" } });

async function version(id: string) {
  const c = await conversations.getConversation({ id });
  return { messageSeq: c!.messageSeq, createdAt: c!.createdAt };
}

/** One turn as the chat route writes it: the person's message and a streaming reply, then the reply settles. */
async function turn(conversationId: string, n: number, status: "complete" | "error" = "complete") {
  await messages.appendMessages({
    conversationId,
    messages: [{ message: user(`u${n}`, `question ${n}`) }, { message: opening(`a${n}`), status: "streaming" }],
    title: n === 0 ? "First question" : undefined,
  });
  const parts = [
    { type: "step-start" as const },
    { type: "text" as const, text: `answer ${n}`, state: "done" as const },
  ];
  await messages.updateMessage({
    conversationId,
    id: `a${n}`,
    parts,
    metadata: { model: "m", ...(status === "error" ? { error: "boom" } : {}) },
    status,
  });
}

beforeAll(async () => {
  await getDb();
});
afterAll(async () => {
  await disconnectDb();
});

const loaded = async (id: string) => messages.loadHistory({ conversationId: id, version: await version(id) });
const load = async (id: string) => (await loaded(id)).messages;

describe(`history cache on ${inject("databaseKind")}`, () => {
  it("serves the next turn's history from memory, identical to what the database returns", async () => {
    const id = newId("hc");
    await conversations.ensureConversation({ id });
    expect(await load(id)).toEqual([]);
    await turn(id, 0);
    await turn(id, 1, "error");
    await turn(id, 2);
    const fromDb = await messages.listMessages({ conversationId: id });
    expect(fromDb).toHaveLength(6);
    const db = await getDb();
    const cached = await load(id);
    expect(cached).toEqual(fromDb);
    expect((await conversations.getConversation({ id }))?.title).toBe("First question");
    // Proof that it came from memory: rows changed behind the cache's back are not seen while the counter stands.
    await db.message.updateMany({
      where: { conversationId: id, id: "u0" },
      data: { parts: [{ type: "text", text: "changed" }] },
    });
    const again = await loaded(id);
    expect(again.cached).toBe(true);
    expect(again.messages[0]?.parts).toEqual([{ type: "text", text: "question 0" }]);
  });

  it("reloads when another process appended (the counter moved) or the conversation was recreated", async () => {
    const id = newId("hc-x");
    await conversations.ensureConversation({ id });
    await turn(id, 0);
    await load(id);
    const db = await getDb();
    // Another server appends a message directly.
    await db.$transaction(async (tx) => {
      const { messageSeq } = await tx.conversation.update({
        where: { id },
        data: { messageSeq: { increment: 1 } },
        select: { messageSeq: true },
      });
      await tx.message.create({
        data: {
          conversationId: id,
          id: "elsewhere",
          role: "user",
          position: messageSeq - 1,
          parts: [{ type: "text", text: "hi" }],
          metadata: {},
        },
      });
    });
    const seen = await load(id);
    expect(seen.map((m) => m.id)).toEqual(["u0", "a0", "elsewhere"]);

    // Deleted and created again under the same id, with the same counter value: the creation time tells.
    await db.conversation.deleteMany({ where: { id } });
    await new Promise((r) => setTimeout(r, 5));
    await conversations.ensureConversation({ id });
    await db.$transaction(async (tx) => {
      await tx.conversation.update({ where: { id }, data: { messageSeq: 3 } });
      for (const [i, m] of ["x", "y", "z"].entries()) {
        await tx.message.create({
          data: {
            conversationId: id,
            id: m,
            role: "user",
            position: i,
            parts: [{ type: "text", text: m }],
            metadata: {},
          },
        });
      }
    });
    expect((await load(id)).map((m) => m.id)).toEqual(["x", "y", "z"]);
  });

  it("forgets a conversation on retry (messages deleted) and never caches a streaming reply", async () => {
    const id = newId("hc-r");
    await conversations.ensureConversation({ id });
    await turn(id, 0);
    await turn(id, 1);
    await load(id);
    await messages.deleteMessagesAfter({ conversationId: id, position: 2 });
    expect((await load(id)).map((m) => m.id)).toEqual(["u0", "a0", "u1"]);

    await messages.appendMessages({
      conversationId: id,
      messages: [{ message: opening("live"), status: "streaming" }],
    });
    const during = await loaded(id);
    expect(during.cached).toBe(false);
    expect(during.messages.at(-1)).toMatchObject({ id: "live", metadata: { status: "streaming" } });
    await messages.updateMessage({ conversationId: id, id: "live", parts: [{ type: "text", text: "partial" }] });
    const later = await load(id);
    expect(later.at(-1)?.parts).toEqual([{ type: "text", text: "partial" }]);
  });

  it("keeps a conversation holding three 8 MiB images: later turns read and convert none of it again", {
    timeout: 60_000,
  }, async () => {
    const id = newId("images");
    await conversations.ensureConversation({ id });
    const url = `data:image/png;base64,${Buffer.alloc(8 * 1024 * 1024, 1).toString("base64")}`;
    const images = [1, 2, 3].map((n) => ({
      type: "file" as const,
      mediaType: "image/png",
      url,
      filename: `scan-${n}.png`,
    }));
    const person: ChatMessage = {
      id: "u0",
      role: "user",
      parts: [{ type: "text", text: "What is in these?" }, ...images],
      metadata: {},
    };
    await messages.appendMessages({
      conversationId: id,
      messages: [{ message: person }, { message: opening("a0"), status: "streaming" }],
    });
    await messages.updateMessage({
      conversationId: id,
      id: "a0",
      parts: [{ type: "text", text: "Three scans." }],
      metadata: { model: "m" },
      status: "complete",
    });
    const first = await loaded(id);
    expect(first.messages[0]!.parts.slice(1)).toEqual(images);
    // The next turns get the very same message objects from memory (their conversions and hashes are kept by identity).
    const second = await loaded(id);
    expect(second.cached).toBe(true);
    expect(second.messages[0]).toBe(first.messages[0]);
    await turn(id, 1);
    const third = await loaded(id);
    expect(third.cached).toBe(true);
    expect(third.messages[0]).toBe(first.messages[0]);
    expect(third.messages).toHaveLength(4);
  });
});
