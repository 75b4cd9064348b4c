// A long conversation's messages are read a page at a time (lib/db/messages.ts listMessages), on a real SQLite file and
// a real PostgreSQL database: other work runs between the pages, and what is read is still what one query would have
// read, even when messages are appended, deleted or moved by a branch edit between two pages.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ChatMessage } from "@/lib/chat-message";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb, getDb } = await import("@/lib/db/client");
const conversations = await import("@/lib/db/conversations");
const messages = await import("@/lib/db/messages");
const branches = await import("@/lib/db/branches");
const { moveBranchState } = await import("@/lib/chat/branches");

const SIZE = 3 * messages.MESSAGE_PAGE + 100;
let seq = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;
const message = (id: string, i: number): ChatMessage => ({
  id,
  role: i % 2 ? "assistant" : "user",
  parts: [{ type: "text", text: `message ${i}` }],
  metadata: i % 2 ? { model: "m" } : {},
});

/** A conversation of `size` messages, appended in slices (one transaction each). */
async function longConversation(size: number): Promise<string> {
  const id = newId("pages");
  await conversations.ensureConversation({ id });
  for (let i = 0; i < size; i += 250) {
    const slice = Array.from({ length: Math.min(250, size - i) }, (_, k) => ({ message: message(`m${i + k}`, i + k) }));
    await messages.appendMessages({ conversationId: id, messages: slice });
  }
  return id;
}

const ids = (list: ChatMessage[]) => list.map((m) => m.id);

/** The ids before, as read while `write` runs (it starts at the first turn of the event loop the read gives), and after. */
async function readWhile(id: string, write: (id: string) => Promise<void>) {
  const before = ids(await messages.listMessages({ conversationId: id }));
  let written: Promise<void> | undefined;
  setImmediate(() => {
    written = write(id);
  });
  const read = ids(await messages.listMessages({ conversationId: id }));
  await written;
  const after = ids(await messages.listMessages({ conversationId: id }));
  return { before, read, after };
}

/** Turns of the event loop taken while `work` ran. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0;
  let running = true;
  const tick = () => {
    if (!running) return;
    turns++;
    setImmediate(tick);
  };
  setImmediate(tick);
  const result = await work();
  running = false;
  return { result, turns };
}

beforeAll(async () => {
  await getDb();
});
afterAll(async () => {
  await disconnectDb();
});

describe(`a long conversation read in pages on ${inject("databaseKind")}`, () => {
  it("lets other work run between the pages and reads every message, in order, as stored", {
    timeout: 60_000,
  }, async () => {
    const id = await longConversation(SIZE);
    const { result, turns } = await turnsDuring(() => messages.listMessages({ conversationId: id }));
    expect(ids(result)).toEqual(Array.from({ length: SIZE }, (_, i) => `m${i}`));
    expect(result[1]).toMatchObject({
      role: "assistant",
      parts: [{ type: "text", text: "message 1" }],
      metadata: { model: "m" },
    });
    expect(result.every((m) => typeof m.metadata?.createdAt === "string")).toBe(true);
    // One turn between every two pages at least. Before, the read was one query: no turn on SQLite (better-sqlite3
    // answers synchronously), 2 on PostgreSQL (the rows arriving), then all of them decoded in one go.
    expect(turns).toBeGreaterThanOrEqual(Math.ceil(SIZE / messages.MESSAGE_PAGE) - 1);
  });

  it("reads a short conversation in one query, and an empty or missing one as empty", { timeout: 60_000 }, async () => {
    const id = await longConversation(7);
    expect(ids(await messages.listMessages({ conversationId: id }))).toEqual([
      "m0",
      "m1",
      "m2",
      "m3",
      "m4",
      "m5",
      "m6",
    ]);
    const exact = await longConversation(messages.MESSAGE_PAGE);
    expect(await messages.listMessages({ conversationId: exact })).toHaveLength(messages.MESSAGE_PAGE);
    const empty = newId("empty");
    await conversations.ensureConversation({ id: empty });
    expect(await messages.listMessages({ conversationId: empty })).toEqual([]);
    expect(await messages.listMessages({ conversationId: "no-such-conversation" })).toEqual([]);
  });

  // Pages read before and after a write would be neither the old messages nor the new ones.
  it.each([
    [
      "messages are deleted (a retry)",
      async (id: string) => void (await messages.deleteMessagesAfter({ conversationId: id, position: 99 })),
    ],
    [
      "a message is appended",
      async (id: string) =>
        void (await messages.appendMessages({ conversationId: id, messages: [{ message: message("added", 1) }] })),
    ],
  ])("answers what one query would have read when %s between two pages", { timeout: 60_000 }, async (_name, write) => {
    const id = await longConversation(SIZE);
    const { before, read, after } = await readWhile(id, write);
    expect(after).not.toEqual(before);
    expect([before, after]).toContainEqual(read);
  });

  it("answers a prefix of one alternative, never a mix, when a branch edit moves the messages between two pages", {
    timeout: 60_000,
  }, async () => {
    const id = await longConversation(SIZE);
    const { before, read, after } = await readWhile(id, async () => {
      await branches.branchForEdit({ conversationId: id, messageId: "m100", move: moveBranchState });
    });
    expect(after).toEqual(before.slice(0, 100));
    // What one query reads while the move runs (the moved messages go from the end): a prefix of the messages before.
    expect(read).toEqual(before.slice(0, read.length));
  });
});
