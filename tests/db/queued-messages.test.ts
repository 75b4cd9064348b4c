// A conversation's queue (lib/db/queued-messages.ts) against a real database (SQLite and PostgreSQL): positions in
// order, the cap held when many queue at once, and every change a conditional update on "queued" — of a cancel and a
// take (or two takes, two cancels) racing, exactly one wins; the step's one read returns the queued steers in order.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { ensureConversation, deleteConversation } = await import("@/lib/db/conversations");
const queue = await import("@/lib/db/queued-messages");
const { readStepState } = await import("@/lib/db/step-state");

afterAll(async () => {
  await disconnectDb();
});

let n = 0;
const fresh = async () => {
  const id = `queue-${Date.now().toString(36)}-${n++}`;
  await ensureConversation({ id });
  return id;
};
const message = (id: string, text = id) => ({ id, role: "user", parts: [{ type: "text", text }] });
const add = (conversationId: string, id: string, when: "next-step" | "after-reply" = "after-reply", max = 20) =>
  queue.queueMessage({ conversationId, id, when, message: message(id), max });

describe(`the queue on ${inject("databaseKind")}`, () => {
  it("queues in order, refuses a duplicate id and an unknown conversation, and lists only what is still queued", async () => {
    const id = await fresh();
    for (const m of ["a", "b", "c"]) expect(await add(id, m)).toMatchObject({ queued: { id: m, status: "queued" } });
    expect(await add(id, "b")).toEqual({ duplicate: true });
    expect(await add("queue-no-such-conversation", "x")).toEqual({ missingConversation: true });
    expect(await queue.cancelQueued({ conversationId: id, id: "b" })).toBe(true);
    const listed = await queue.listQueued({ conversationId: id });
    expect(listed.map((r) => [r.id, r.position])).toEqual([
      ["a", 0],
      ["c", 2],
    ]);
    expect(listed[0]!.message).toEqual(message("a"));
    expect((await add(id, "d")) as { queued: { position: number } }).toMatchObject({ queued: { position: 3 } });
  });

  it("holds the cap when twelve queue at once: ten stored, two told the queue is full, positions distinct", async () => {
    const id = await fresh();
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => add(id, `m${i}`, "after-reply", 10)));
    expect(answers.filter((a) => "queued" in a)).toHaveLength(10);
    expect(answers.filter((a) => "full" in a)).toEqual([{ full: 10 }, { full: 10 }]);
    const positions = (await queue.listQueued({ conversationId: id })).map((r) => r.position);
    expect(new Set(positions).size).toBe(10);
  });

  it("lets exactly one of a cancel, an edit and two takes racing for a message win", async () => {
    const id = await fresh();
    for (let round = 0; round < 5; round++) {
      const m = `r${round}`;
      await add(id, m, "next-step");
      const [cancelled, edited, takenA, takenB] = await Promise.all([
        queue.cancelQueued({ conversationId: id, id: m }),
        queue.editQueued({ conversationId: id, id: m, message: message(m, "edited") }),
        queue.takeQueued({ conversationId: id, ids: [m], replyId: "reply-a" }),
        queue.takeQueued({ conversationId: id, ids: [m], replyId: "reply-b" }),
      ]);
      const takes = takenA.length + takenB.length;
      // An edit leaves the message queued: then a cancel or one take may still follow it.
      expect(Number(cancelled) + takes).toBe(1);
      const row = await queue.getQueued({ conversationId: id, id: m });
      expect(row!.status).toBe(cancelled ? "cancelled" : "taken");
      if (!cancelled) expect(row!.replyId).toBe(takenA.length ? "reply-a" : "reply-b");
      void edited;
    }
  });

  it("a taken message can no longer be edited or cancelled; it is delivered with its reply, or put back", async () => {
    const id = await fresh();
    await add(id, "s1", "next-step");
    await add(id, "s2", "next-step");
    const taken = await queue.takeQueued({ conversationId: id, ids: ["s2", "s1"], replyId: "reply-1" });
    expect(taken.map((r) => r.id)).toEqual(["s1", "s2"]);
    expect(await queue.cancelQueued({ conversationId: id, id: "s1" })).toBe(false);
    expect(await queue.editQueued({ conversationId: id, id: "s1", message: message("s1", "x") })).toBe(false);
    await queue.untake({ conversationId: id, id: "s2", status: "queued" });
    expect(await queue.markDelivered({ conversationId: id, replyId: "reply-1" })).toBe(1);
    expect(await queue.getQueued({ conversationId: id, id: "s1" })).toMatchObject({
      status: "delivered",
      deliveredAt: expect.any(Date),
    });
    expect((await queue.firstQueued({ conversationId: id }))?.id).toBe("s2");
  });

  it("the step's read returns the queued steers in order, not after-reply ones nor taken ones", async () => {
    const id = await fresh();
    await add(id, "later", "after-reply");
    await add(id, "first", "next-step");
    await add(id, "second", "next-step");
    await add(id, "gone", "next-step");
    await queue.takeQueued({ conversationId: id, ids: ["gone"], replyId: "reply-x" });
    const state = await readStepState({ conversationId: id });
    expect(state!.steers).toEqual([
      { id: "first", position: 1, message: message("first") },
      { id: "second", position: 2, message: message("second") },
    ]);
    expect((await readStepState({ conversationId: await fresh() }))!.steers).toEqual([]);
  });

  it("puts back, at their places, the steers a reply took but did not save; the saved ones stay its own", async () => {
    const id = await fresh();
    for (const m of ["s1", "s2", "s3"]) await add(id, m, "next-step");
    await queue.takeQueued({ conversationId: id, ids: ["s1", "s2"], replyId: "cut" });
    await queue.takeQueued({ conversationId: id, ids: ["s3"], replyId: "other" });
    expect(await queue.requeueTaken({ conversationId: id, replyId: "cut", saved: ["s1"] })).toBe(1);
    expect((await queue.getQueued({ conversationId: id, id: "s1" }))?.status).toBe("taken");
    expect(await queue.getQueued({ conversationId: id, id: "s2" })).toMatchObject({ status: "queued", replyId: null });
    expect((await queue.getQueued({ conversationId: id, id: "s3" }))?.status).toBe("taken");
    expect((await readStepState({ conversationId: id }))!.steers.map((s) => [s.id, s.position])).toEqual([["s2", 1]]);
    expect(await queue.requeueTaken({ conversationId: id, replyId: "cut", saved: [] })).toBe(1);
    expect(await queue.requeueTaken({ conversationId: id, replyId: "cut", saved: [] })).toBe(0);
  });

  it("names the conversations whose queue waits, each once, oldest first", async () => {
    const [a, b, done] = [await fresh(), await fresh(), await fresh()];
    await add(a, "a1");
    await add(b, "b1");
    await add(a, "a2");
    await add(done, "d1");
    await queue.takeQueued({ conversationId: done, ids: ["d1"], replyId: "r" });
    const waiting = await queue.conversationsWithQueued(1_000);
    expect(waiting.filter((c) => [a, b, done].includes(c))).toEqual([a, b]);
  });

  it("goes with its conversation", async () => {
    const id = await fresh();
    await add(id, "a");
    await deleteConversation({ id });
    expect(await queue.listQueued({ conversationId: id })).toEqual([]);
  });
});
