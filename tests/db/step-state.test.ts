// The reply step's one read (lib/db/step-state.ts) against a real database (SQLite and PostgreSQL): the same settings,
// mode, agent state, workspace revisions, tasks and children as the per-aggregate queries read, in one statement; a
// finished child's run without its answer.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { ensureConversation, setAgentState, updateConversation, setConversationMode } = await import(
  "@/lib/db/conversations"
);
const { createTask, listTasks, updateTask } = await import("@/lib/db/tasks");
const { toTask } = await import("@/lib/db/tasks");
const subagents = await import("@/lib/db/subagents");
const { workspaceViewStatus } = await import("@/lib/db/workspace-views");
const { readStepState } = await import("@/lib/db/step-state");

afterAll(async () => {
  await disconnectDb();
});

let n = 0;
const fresh = async () => {
  const id = `step-${Date.now().toString(36)}-${n++}`;
  await ensureConversation({ id });
  return id;
};

describe(`the step's read on ${inject("databaseKind")}`, () => {
  it("reads an unknown conversation as null", async () => {
    expect(await readStepState({ conversationId: "no-such-conversation" })).toBeNull();
  });

  it("reads a new conversation: its defaults, no tasks, no children, the workspace's revisions", async () => {
    const id = await fresh();
    const state = await readStepState({ conversationId: id });
    const status = await workspaceViewStatus({ conversationId: id });
    expect(state).toMatchObject({ mode: "build", parentId: null, tasks: [], children: [] });
    expect(state!.workspace).toEqual(status);
    expect(state!.workspace).toMatchObject({
      workspaceId: "default",
      ownerId: null,
      frozenId: null,
      seenRevision: null,
    });
  });

  it("reads what the per-aggregate queries read: settings, mode, agent state and tasks in their order", async () => {
    const id = await fresh();
    await updateConversation({
      id,
      settings: { injection: { timezone: "Europe/Berlin" }, context: { triggerRatio: 0.7 } },
    });
    await setConversationMode({ id, mode: "plan" });
    await setAgentState({
      id,
      agentState: {
        taskEdits: 3,
        strategy: { calls: 2, updates: 1, statusTokens: 80, statuses: 2, hintTokens: 40, hints: 1 },
      },
    });
    await createTask({
      conversationId: id,
      subject: "pack the boxes",
      description: "the <kitchen> ones",
      metadata: { room: "kitchen", n: 2 },
    });
    await createTask({ conversationId: id, subject: "book a van «ü» 📦", status: "in_progress" });
    await updateTask({ conversationId: id, id: "1", changes: { addBlockedBy: ["2"], owner: "ann" } });
    const state = await readStepState({ conversationId: id });
    expect(state).toMatchObject({
      settings: { injection: { timezone: "Europe/Berlin" }, context: { triggerRatio: 0.7 } },
      mode: "plan",
      agentState: { taskEdits: 3, strategy: { calls: 2, hints: 1 } },
    });
    expect(state!.tasks.map(toTask)).toEqual(await listTasks({ conversationId: id }));
  });

  it("summarises the children: a running one's whole run, a finished one's without its answer", async () => {
    const parent = await fresh();
    const spawn = async (agentId: string, background: boolean) => {
      const made = await subagents.createChild({
        id: `${parent}-c${n++}`,
        parentId: parent,
        workspaceId: "default",
        mode: "build",
        settings: {},
        model: null,
        run: { agentId, label: `${agentId} job`, startedAt: new Date().toISOString() },
        background,
        maxRunning: 4,
      });
      if (!("child" in made)) throw new Error("busy");
      return made.child;
    };
    const running = await spawn("reviewer", false);
    const told = await spawn("general-purpose", false);
    const waiting = await spawn("general-purpose", true);
    await subagents.settleChild({
      id: told.id,
      status: "done",
      run: { agentId: "general-purpose", answer: "a long answer".repeat(100) },
    });
    await subagents.settleChild({
      id: waiting.id,
      status: "done",
      run: { agentId: "general-purpose", label: "research", answer: "42" },
    });
    const state = await readStepState({ conversationId: parent });
    const listed = await subagents.listChildren({ parentId: parent });
    expect(state!.children.map((c) => c.id)).toEqual(listed.map((c) => c.id));
    const byId = new Map(state!.children.map((c) => [c.id, c]));
    expect(byId.get(running.id)).toEqual(listed.find((c) => c.id === running.id));
    // A finished child's run without its answer (read whole when it is told): its name and times.
    const { answer, ...summary } = listed.find((c) => c.id === waiting.id)!.run;
    expect(answer).toBe("42");
    expect(byId.get(waiting.id)).toEqual({ ...listed.find((c) => c.id === waiting.id), run: summary });
    expect(byId.get(waiting.id)).toMatchObject({
      status: "done",
      pending: true,
      background: true,
      run: { label: "research", agentId: "general-purpose" },
    });
    expect(byId.get(told.id)?.run).toEqual({ agentId: "general-purpose" });
  });
});
