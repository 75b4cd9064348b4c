// Branches of a long conversation against a real database (SQLite and PostgreSQL): editing its first message and
// switching back and forth round-trips every message exactly (ids, order, parts, metadata, status), the alternative
// not shown stays intact, and the move is not one long transaction: another transaction gets through while it runs.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { ChatMessage } from "@/lib/chat-message";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb, getDb } = await import("@/lib/db/client");
const conversations = await import("@/lib/db/conversations");
const messages = await import("@/lib/db/messages");
const branches = await import("@/lib/db/branches");
const { moveBranchState } = await import("@/lib/chat/branches");

const SIZE = 2_000;
let seq = 0;
const newId = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${seq++}`;

/** Messages of every shape a conversation holds: text, reasoning, a tool call, a hint; a failed reply now and then. */
function conversationOf(size: number, prefix: string): Array<{ message: ChatMessage; status?: "complete" | "error" }> {
  return Array.from({ length: size }, (_, i) => {
    if (i % 2 === 0)
      return {
        message: {
          id: `${prefix}${i}`,
          role: "user",
          parts: [{ type: "text", text: `question ${i} — ünïcödé ${"x".repeat(i % 13)}` }],
          metadata: {},
        },
      };
    const parts = [
      { type: "step-start" },
      { type: "reasoning", text: `thinking ${i}`, state: "done" },
      { type: "tool-TaskList", toolCallId: `call-${i}`, state: "output-available", input: {}, output: { tasks: [i] } },
      { type: "data-hint", data: { kind: "time", text: `hint ${i}` } },
      { type: "text", text: `answer ${i}`, state: "done" },
    ] as ChatMessage["parts"];
    return {
      message: { id: `${prefix}${i}`, role: "assistant", parts, metadata: { model: "m", n: i } },
      status: i % 10 === 9 ? "error" : "complete",
    };
  });
}

/** Appends in slices (one transaction each: 2,000 messages in one is slow on a busy PostgreSQL). */
async function append(conversationId: string, list: Array<{ message: ChatMessage; status?: "complete" | "error" }>) {
  for (let i = 0; i < list.length; i += 100)
    await messages.appendMessages({ conversationId, messages: list.slice(i, i + 100) });
}

const strip = (m: ChatMessage) => ({
  id: m.id,
  role: m.role,
  parts: m.parts,
  metadata: { ...m.metadata, createdAt: undefined },
});
const listed = async (id: string) => (await messages.listMessages({ conversationId: id })).map(strip);

beforeAll(async () => {
  await getDb();
});
afterAll(async () => {
  await disconnectDb();
});

describe(`branches of a long conversation on ${inject("databaseKind")}`, () => {
  it(`edits the first of ${SIZE} messages and switches back and forth: every message round-trips exactly`, {
    timeout: 120_000,
  }, async () => {
    const id = newId("br");
    await conversations.ensureConversation({ id });
    await append(id, conversationOf(SIZE, "m"));
    const original = await listed(id);
    expect(original).toHaveLength(SIZE);

    // The edit: everything becomes an archived alternative; the new alternative gets two messages.
    expect(await branches.branchForEdit({ conversationId: id, messageId: "m0", move: moveBranchState })).toEqual({
      anchorId: "",
    });
    expect(await listed(id)).toEqual([]);
    await messages.appendMessages({ conversationId: id, messages: conversationOf(2, "e") });
    const edited = await listed(id);

    for (let round = 0; round < 2; round++) {
      expect(await branches.switchBranch({ conversationId: id, anchorId: "", ordinal: 1, move: moveBranchState })).toBe(
        "switched",
      );
      expect(await listed(id)).toEqual(original);
      expect(await branches.switchBranch({ conversationId: id, anchorId: "", ordinal: 2, move: moveBranchState })).toBe(
        "switched",
      );
      expect(await listed(id)).toEqual(edited);
    }
    expect(
      (await branches.listBranches({ conversationId: id })).map((r) => [r.anchorId, r.ordinal, r.archived === null]),
    ).toEqual([
      ["", 1, false],
      ["", 2, true],
    ]);
    // Appending after a switch continues the restored alternative.
    expect(await branches.switchBranch({ conversationId: id, anchorId: "", ordinal: 1, move: moveBranchState })).toBe(
      "switched",
    );
    await messages.appendMessages({ conversationId: id, messages: conversationOf(1, "after") });
    expect((await listed(id)).map((m) => m.id)).toEqual([...original.map((m) => m.id), "after0"]);
  });

  it("an alternative within an archived one comes back with it", { timeout: 60_000 }, async () => {
    const id = newId("nest");
    await conversations.ensureConversation({ id });
    await messages.appendMessages({ conversationId: id, messages: conversationOf(6, "m") });
    // Edit m4 (its anchor is m3), then edit m2 (anchor m1): the first alternative holds the branch at m3.
    expect(await branches.branchForEdit({ conversationId: id, messageId: "m4", move: moveBranchState })).toEqual({
      anchorId: "m3",
    });
    await messages.appendMessages({ conversationId: id, messages: conversationOf(1, "x") });
    expect(await branches.branchForEdit({ conversationId: id, messageId: "m2", move: moveBranchState })).toEqual({
      anchorId: "m1",
    });
    await messages.appendMessages({ conversationId: id, messages: conversationOf(1, "y") });
    expect((await listed(id)).map((m) => m.id)).toEqual(["m0", "m1", "y0"]);
    expect((await branches.listBranches({ conversationId: id })).map((r) => r.anchorId)).toEqual(["m1", "m1"]);

    expect(await branches.switchBranch({ conversationId: id, anchorId: "m1", ordinal: 1, move: moveBranchState })).toBe(
      "switched",
    );
    expect((await listed(id)).map((m) => m.id)).toEqual(["m0", "m1", "m2", "m3", "x0"]);
    expect(await branches.switchBranch({ conversationId: id, anchorId: "m3", ordinal: 1, move: moveBranchState })).toBe(
      "switched",
    );
    expect((await listed(id)).map((m) => m.id)).toEqual(["m0", "m1", "m2", "m3", "m4", "m5"]);
    const records = (await branches.listBranches({ conversationId: id })).map((r) => [
      r.anchorId,
      r.ordinal,
      r.archived === null,
    ]);
    expect(records.sort()).toEqual([
      ["m1", 1, true],
      ["m1", 2, false],
      ["m3", 1, true],
      ["m3", 2, false],
    ]);
  });

  it("finishes a switch that a dying server cut short, when the conversation is next opened", {
    timeout: 60_000,
  }, async () => {
    const id = newId("cut");
    await conversations.ensureConversation({ id });
    await append(id, conversationOf(40, "m"));
    await branches.branchForEdit({ conversationId: id, messageId: "m0", move: moveBranchState });
    await append(id, conversationOf(2, "e"));
    const edited = await listed(id);
    expect(await branches.switchBranch({ conversationId: id, anchorId: "", ordinal: 1, move: moveBranchState })).toBe(
      "switched",
    );
    const original = await listed(id);
    const db = await getDb();
    const [record] = await db.messageBranch.findMany({ where: { conversationId: id, ordinal: 2 } });
    const restoreKey = (record!.archived as { key: string }).key;
    // As a server dying mid-switch back to the edit leaves it: the move recorded, half the rows archived.
    const move = { from: 0, key: "cut-key", restoreKey, phase: "archive", anchorId: "", ordinal: 2 };
    await db.conversation.update({ where: { id }, data: { branchMove: move } });
    await db.$executeRaw`INSERT INTO "ArchivedMessage" ("conversationId", "branchKey", "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt")
      SELECT "conversationId", 'cut-key', "id", "position", "role", "parts", "metadata", "status", "createdAt", "updatedAt" FROM "Message" WHERE "conversationId" = ${id} AND "position" >= 20`;
    await db.$executeRaw`DELETE FROM "Message" WHERE "conversationId" = ${id} AND "position" >= 20`;
    expect(await listed(id)).toEqual(original.slice(0, 20));

    expect(await branches.finishBranchMove({ conversationId: id, move: moveBranchState })).toBe(true);
    expect(await listed(id)).toEqual(edited);
    expect(await branches.finishBranchMove({ conversationId: id, move: moveBranchState })).toBe(false);
    expect(await branches.switchBranch({ conversationId: id, anchorId: "", ordinal: 1, move: moveBranchState })).toBe(
      "switched",
    );
    expect(await listed(id)).toEqual(original);
    expect(await db.archivedMessage.count({ where: { conversationId: id } })).toBe(2);
  });

  it("restores an alternative archived before ArchivedMessage existed (its messages whole in the record)", {
    timeout: 60_000,
  }, async () => {
    const id = newId("legacy");
    await conversations.ensureConversation({ id });
    await append(id, conversationOf(4, "m"));
    await branches.branchForEdit({ conversationId: id, messageId: "m2", move: moveBranchState });
    await append(id, conversationOf(1, "e"));
    const db = await getDb();
    // The old shape, as the message_branches migration's code stored it.
    const old = (n: number) => ({
      id: `old${n}`,
      role: n % 2 ? "assistant" : "user",
      parts: [{ type: "text", text: `old ${n}` }],
      metadata: {},
      status: "complete",
      createdAt: "2026-12-01T10:00:00.000Z",
    });
    await db.messageBranch.update({
      where: { conversationId_anchorId_ordinal: { conversationId: id, anchorId: "m1", ordinal: 1 } },
      data: { archived: { messages: [old(0), old(1)], nested: [] } },
    });
    expect(await branches.switchBranch({ conversationId: id, anchorId: "m1", ordinal: 1, move: moveBranchState })).toBe(
      "switched",
    );
    expect((await listed(id)).map((m) => m.id)).toEqual(["m0", "m1", "old0", "old1"]);
    expect(await branches.switchBranch({ conversationId: id, anchorId: "m1", ordinal: 2, move: moveBranchState })).toBe(
      "switched",
    );
    expect((await listed(id)).map((m) => m.id)).toEqual(["m0", "m1", "e0"]);
    expect(await branches.switchBranch({ conversationId: id, anchorId: "m1", ordinal: 1, move: moveBranchState })).toBe(
      "switched",
    );
    expect((await listed(id)).slice(2).map((m) => [m.id, m.parts])).toEqual([
      ["old0", [{ type: "text", text: "old 0" }]],
      ["old1", [{ type: "text", text: "old 1" }]],
    ]);
  });

  it("lets another transaction through while a long conversation's alternatives are moved", {
    timeout: 120_000,
  }, async () => {
    const id = newId("busy");
    const other = newId("other");
    await conversations.ensureConversation({ id });
    await conversations.ensureConversation({ id: other });
    await append(id, conversationOf(SIZE, "m"));
    await branches.branchForEdit({ conversationId: id, messageId: "m0", move: moveBranchState });
    await messages.appendMessages({ conversationId: id, messages: conversationOf(2, "e") });
    const db = await getDb();

    let done = false;
    const switching = branches
      .switchBranch({ conversationId: id, anchorId: "", ordinal: 1, move: moveBranchState })
      .finally(() => (done = true));
    // Once the move is under way (its first rows show: on SQLite a read outside a transaction sees them even inside
    // one), a short transaction elsewhere must not wait for the whole of it.
    while (!done && (await db.message.count({ where: { conversationId: id } })) === 2)
      await new Promise((r) => setTimeout(r, 1));
    let finishedDuring = 0;
    for (let i = 0; i < 3 && !done; i++) {
      await db.$transaction(async (tx) =>
        tx.conversation.update({ where: { id: other }, data: { title: `while switching ${i}` } }),
      );
      if (!done) finishedDuring++;
    }
    expect(await switching).toBe("switched");
    expect(finishedDuring).toBeGreaterThan(0);
    expect(await db.message.count({ where: { conversationId: id } })).toBe(SIZE);
  });

  it("a regenerated reply is archived after the person's message, switching brings it back exactly, and the shown one's ordinal is known", async () => {
    const id = newId("rg");
    await conversations.ensureConversation({ id });
    await append(id, conversationOf(4, "g"));
    const original = await listed(id);
    // Only the person's message can anchor a regenerate; nothing changes otherwise.
    expect(await branches.branchForRetry({ conversationId: id, messageId: "g3", move: moveBranchState })).toBe(
      "not-person",
    );
    expect(await branches.branchForRetry({ conversationId: id, messageId: "nope", move: moveBranchState })).toBe(
      "no-message",
    );
    expect(await listed(id)).toEqual(original);
    // Which attempt at the reply is shown (the demo model words each anew): the first, while there are no others.
    const active = () => branches.activeOrdinal({ conversationId: id, anchorId: "g2" });
    expect(await active()).toBe(1);

    expect(await branches.branchForRetry({ conversationId: id, messageId: "g2", move: moveBranchState })).toBe(true);
    expect(await active()).toBe(2);
    expect(await listed(id)).toEqual(original.slice(0, 3));
    // Nothing follows the person's message now: nothing to keep.
    expect(await branches.branchForRetry({ conversationId: id, messageId: "g2", move: moveBranchState })).toBe(false);
    const again: ChatMessage = { id: "g3b", role: "assistant", parts: [{ type: "text", text: "again" }], metadata: {} };
    await messages.appendMessages({ conversationId: id, messages: [{ message: again }] });
    expect(
      (await branches.listBranches({ conversationId: id })).map((r) => [r.anchorId, r.ordinal, r.archived === null]),
    ).toEqual([
      ["g2", 1, false],
      ["g2", 2, true],
    ]);
    expect(await branches.switchBranch({ conversationId: id, anchorId: "g2", ordinal: 1, move: moveBranchState })).toBe(
      "switched",
    );
    expect(await listed(id)).toEqual(original);
    expect(await active()).toBe(1);
    expect(await branches.switchBranch({ conversationId: id, anchorId: "g2", ordinal: 2, move: moveBranchState })).toBe(
      "switched",
    );
    expect((await listed(id)).map((m) => m.id)).toEqual(["g0", "g1", "g2", "g3b"]);
    expect(await active()).toBe(2);
    expect(await branches.activeOrdinal({ conversationId: id, anchorId: "g0" })).toBe(1);
  });
});
