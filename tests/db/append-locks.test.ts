// PostgreSQL only (left out of the SQLite project, where appends are one synchronous statement batch): an append whose
// counter is stale must not deadlock with an append that holds the conversation's row and is about to write the same
// positions. Another session plays that append step by step, so the interleaving is the same on every run.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ChatMessage } from "@/lib/chat-message";

process.env.DATABASE_URL = inject("databaseUrl");
if (inject("databaseKind") !== "postgres") throw new Error("tests/db/append-locks.test.ts runs on PostgreSQL only");

const { disconnectDb, getDb } = await import("@/lib/db/client");
const conversations = await import("@/lib/db/conversations");
const messages = await import("@/lib/db/messages");

const userMessage = (id: string, text: string): ChatMessage => ({
  id,
  role: "user",
  parts: [{ type: "text", text }],
  metadata: {},
});
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let other: pg.Client;
beforeAll(async () => {
  await getDb();
  other = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await other.connect();
});
afterAll(async () => {
  await other?.end();
  await disconnectDb();
});

describe("appends on PostgreSQL", () => {
  it("an append with a stale counter waits for one that holds the conversation, then lands after it: no deadlock", async () => {
    const id = `locks-${Date.now().toString(36)}`;
    await conversations.ensureConversation({ id });
    await messages.appendMessages({
      conversationId: id,
      messages: [{ message: userMessage("u0", "first") }],
      expectedSeq: 0,
    });

    // The other session's append: it takes the conversation's row (counter 1 → 3) and holds it…
    await other.query("BEGIN");
    await other.query(`UPDATE "Conversation" SET "messageSeq" = "messageSeq" + 2 WHERE "id" = $1`, [id]);
    // …while this one, having read the counter as 1, appends two messages at positions 1 and 2.
    const appended = messages.appendMessages({
      conversationId: id,
      messages: [{ message: userMessage("u1", "mine") }, { message: userMessage("r1", "reply"), status: "streaming" }],
      expectedSeq: 1,
    });
    await sleep(300);
    // The other session writes its rows at positions 1 and 2, as it counted them, and commits.
    const insert = `INSERT INTO "Message" ("conversationId", "id", "position", "role", "parts", "status", "updatedAt") VALUES ($1, $2, $3, 'user', '[]', 'complete', now())`;
    const theirs = (async () => {
      await other.query(insert, [id, "o1", 1]);
      await other.query(insert, [id, "o2", 2]);
      await other.query("COMMIT");
    })();
    const [mine, committed] = await Promise.allSettled([appended, theirs]);
    expect(committed).toMatchObject({ status: "fulfilled" });
    expect(mine).toMatchObject({ status: "fulfilled" });

    const rows = await (await getDb()).message.findMany({
      where: { conversationId: id },
      orderBy: { position: "asc" },
      select: { id: true, position: true },
    });
    expect(rows.map((r) => `${r.position}:${r.id}`)).toEqual(["0:u0", "1:o1", "2:o2", "3:u1", "4:r1"]);
    expect((await conversations.getConversation({ id }))?.messageSeq).toBe(5);
  }, 30_000);
});
