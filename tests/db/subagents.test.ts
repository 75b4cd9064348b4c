// A subagent's conversation against a real database (SQLite and PostgreSQL): keys per agent, the running limit under
// the parent's lock, the background/pending hand-over (told once), depth, the list of conversations without children,
// and deleting a parent deleting its children and theirs.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { ensureConversation, listConversations, deleteConversation, getConversation } = await import(
  "@/lib/db/conversations"
);
const db = await import("@/lib/db/subagents");

afterAll(async () => {
  await disconnectDb();
});

let n = 0;
const fresh = async () => {
  const id = `parent-${Date.now().toString(36)}-${n++}`;
  await ensureConversation({ id });
  return id;
};
const spawn = (
  parentId: string,
  agentId: string,
  { id = `${parentId}-c${n++}`, background = false, maxRunning = 4 } = {},
) =>
  db.createChild({
    id,
    parentId,
    workspaceId: "default",
    mode: "build",
    settings: {},
    model: null,
    run: { agentId, label: `${agentId} job` },
    background,
    maxRunning,
  });

describe(`subagent conversations on ${inject("databaseKind")}`, () => {
  it("adopts an imported conversation as a child (export/import), keeping only a run record's known fields", async () => {
    const parent = await fresh();
    const imported = `${parent}-imported`;
    await ensureConversation({ id: imported });
    const run = db.runOf({
      agentId: "reviewer",
      label: "check",
      tokens: 12,
      answer: "ok",
      tools: ["TaskList"],
      extra: "dropped",
      startedAt: 5,
    });
    expect(run).toEqual({ agentId: "reviewer", label: "check", tokens: 12, answer: "ok", tools: ["TaskList"] });
    await db.adoptChild({
      id: imported,
      parentId: parent,
      workspaceId: "default",
      agentKey: "agent:reviewer:3",
      status: "done",
      run,
    });
    expect(await db.listChildren({ parentId: parent })).toEqual([
      expect.objectContaining({
        id: imported,
        agentKey: "agent:reviewer:3",
        status: "done",
        background: false,
        pending: false,
        run,
      }),
    ]);
    expect((await listConversations()).map((c) => c.id)).not.toContain(imported);
    // The next spawn of that agent numbers after the adopted key.
    const next = await spawn(parent, "reviewer");
    expect("child" in next && next.child.agentKey).toBe("agent:reviewer:4");
  });

  it("numbers each agent's children from 1 and refuses a fifth running one", async () => {
    const parent = await fresh();
    const keys = [];
    for (const agent of ["general-purpose", "general-purpose", "reviewer", "general-purpose"]) {
      const made = await spawn(parent, agent);
      if (!("child" in made)) throw new Error("busy");
      keys.push(made.child.agentKey);
    }
    expect(keys).toEqual([
      "agent:general-purpose:1",
      "agent:general-purpose:2",
      "agent:reviewer:1",
      "agent:general-purpose:3",
    ]);
    expect(await spawn(parent, "reviewer")).toEqual({ busy: 4 });
    const children = await db.listChildren({ parentId: parent });
    expect(children.map((c) => [c.agentKey, c.status, c.run.label])).toEqual([
      ["agent:general-purpose:1", "running", "general-purpose job"],
      ["agent:general-purpose:2", "running", "general-purpose job"],
      ["agent:reviewer:1", "running", "reviewer job"],
      ["agent:general-purpose:3", "running", "general-purpose job"],
    ]);
    // One finishing frees a slot.
    expect(
      await db.settleChild({ id: children[0]!.id, status: "done", run: { agentId: "general-purpose", answer: "42" } }),
    ).toBe(true);
    const fifth = await spawn(parent, "reviewer");
    expect("child" in fifth && fifth.child.agentKey).toBe("agent:reviewer:2");
  });

  it("creates at most four running children when many spawns race", async () => {
    const parent = await fresh();
    const results = await Promise.all(Array.from({ length: 8 }, () => spawn(parent, "general-purpose")));
    expect(results.filter((r) => "child" in r)).toHaveLength(4);
    const keys = (await db.listChildren({ parentId: parent })).map((c) => c.agentKey).sort();
    expect(keys).toEqual([
      "agent:general-purpose:1",
      "agent:general-purpose:2",
      "agent:general-purpose:3",
      "agent:general-purpose:4",
    ]);
  });

  it("keeps children out of the conversation list; they are readable by id", async () => {
    const parent = await fresh();
    const made = await spawn(parent, "general-purpose");
    if (!("child" in made)) throw new Error("busy");
    const listed = (await listConversations()).map((c) => c.id);
    expect(listed).toContain(parent);
    expect(listed).not.toContain(made.child.id);
    expect((await listConversations({ workspaceId: "default" })).map((c) => c.id)).not.toContain(made.child.id);
    expect(await getConversation({ id: made.child.id })).toMatchObject({
      id: made.child.id,
      title: "general-purpose job",
    });
    expect(await db.getChild({ id: made.child.id })).toMatchObject({
      parentId: parent,
      agentKey: "agent:general-purpose:1",
    });
    expect(await db.getChild({ id: parent })).toBeNull();
  });

  it("marks a background run's answer as one to tell, and a synchronous one's never", async () => {
    const parent = await fresh();
    const sync = await spawn(parent, "general-purpose");
    const inBackground = await spawn(parent, "general-purpose", { background: true });
    const promoted = await spawn(parent, "general-purpose");
    if (!("child" in sync && "child" in inBackground && "child" in promoted)) throw new Error("busy");
    // Its time ran out: it goes on in the background.
    expect(await db.backgroundChild({ id: promoted.child.id })).toBe(true);
    for (const { child } of [sync, inBackground, promoted])
      expect(await db.settleChild({ id: child.id, status: "done", run: { agentId: "general-purpose" } })).toBe(true);
    // Settled once only; a run that ended cannot be moved to the background any more.
    expect(await db.settleChild({ id: sync.child.id, status: "error", run: { agentId: "general-purpose" } })).toBe(
      false,
    );
    expect(await db.backgroundChild({ id: sync.child.id })).toBe(false);
    // Whether a run's answer goes to the parent as a hint is its background flag, settled in the same statement
    // (which of them the parent's input already holds is read from its messages: lib/chat/reply/read-step.ts).
    const toTell = async () =>
      (await db.listChildren({ parentId: parent }))
        .filter((c) => c.background && c.pending)
        .map((c) => c.id)
        .sort();
    expect(await toTell()).toEqual([inBackground.child.id, promoted.child.id].sort());
    expect((await db.getChild({ id: sync.child.id }))?.status).toBe("done");
  });

  it("runs a finished child again (AgentSend), not a running one, within the limit", async () => {
    const parent = await fresh();
    const made = await spawn(parent, "general-purpose");
    if (!("child" in made)) throw new Error("busy");
    const again = {
      id: made.child.id,
      parentId: parent,
      run: { agentId: "general-purpose" },
      background: false,
      maxRunning: 4,
    };
    expect(await db.restartChild(again)).toBe("running");
    await db.settleChild({ id: made.child.id, status: "done", run: { agentId: "general-purpose" } });
    expect(await db.restartChild({ ...again, maxRunning: 0 })).toEqual({ busy: 0 });
    expect(await db.restartChild(again)).toMatchObject({ status: "running", pending: false });
  });

  it("counts depth and deletes children and grandchildren with their parent", async () => {
    const parent = await fresh();
    const child = await spawn(parent, "general-purpose");
    if (!("child" in child)) throw new Error("busy");
    const grandchild = await spawn(child.child.id, "general-purpose");
    if (!("child" in grandchild)) throw new Error("busy");
    expect(await Promise.all([parent, child.child.id, grandchild.child.id].map((id) => db.depthOf({ id })))).toEqual([
      0, 1, 2,
    ]);
    expect(await db.descendantIds({ id: parent })).toEqual([child.child.id, grandchild.child.id]);
    expect(await deleteConversation({ id: parent })).toBe(true);
    expect(await getConversation({ id: child.child.id })).toBeNull();
    expect(await getConversation({ id: grandchild.child.id })).toBeNull();
  });
});
