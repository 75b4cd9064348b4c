// The task tools against a real database (runs on SQLite and on PostgreSQL): result texts, errors, the call
// counter, blocking links and metadata merges.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { ensureConversation } = await import("@/lib/db/conversations");
const { getTask, listTasks, createTask } = await import("@/lib/db/tasks");
const { createTools } = await import("@/lib/ai/tools/index");
const { createCallCounter } = await import("@/lib/ai/tools/task-tool-context");

afterAll(async () => {
  await disconnectDb();
});

let n = 0;
async function setup() {
  const conversationId = `tools-${Date.now().toString(36)}-${n++}`;
  await ensureConversation({ id: conversationId });
  let changes = 0;
  const tools = createTools({ conversationId, nextCallNumber: createCallCounter([]), onTasksChanged: () => void changes++ });
  // Like the AI SDK: validate the input with the tool's schema, then execute.
  const run = async (name: keyof typeof tools, input: unknown): Promise<string> => {
    // biome-ignore lint/suspicious/noExplicitAny: calling the tools' execute functions directly
    const t = tools[name] as any;
    const parsed = await t.inputSchema.validate(input);
    if (!parsed.success) throw parsed.error;
    return (await t.execute(parsed.value, { toolCallId: "t", messages: [] })) as string;
  };
  return { conversationId, run, changes: () => changes };
}

describe(`task tools on ${inject("databaseKind")}`, () => {
  it("creates tasks with sequential ids and counts every call", async () => {
    const { conversationId, run, changes } = await setup();
    expect(await run("TaskCreate", { subject: "Draft", description: "Write the draft" })).toBe(
      "Task (id=1) created successfully: Draft\n(Tool call #1 for 'TaskCreate' in this conversation.)",
    );
    expect(await run("TaskCreate", { subject: "Review", description: "" })).toMatch(/^Task \(id=2\) created successfully: Review\n\(Tool call #2 for 'TaskCreate'/);
    expect((await listTasks({ conversationId })).map((t) => [t.id, t.status])).toEqual([
      ["1", "pending"],
      ["2", "pending"],
    ]);
    expect(changes()).toBe(2);
    expect(await run("TaskList", {})).toBe("1 [pending] Draft\n2 [pending] Review\n(Tool call #1 for 'TaskList' in this conversation.)");
  });

  it("gets a task's detail and fails clearly for an unknown id", async () => {
    const { run } = await setup();
    await run("TaskCreate", { subject: "Draft", description: "Write it", metadata: { area: "docs" } });
    expect(await run("TaskGet", { task_id: "1" })).toBe(
      'Task (id=1): Draft\nStatus: pending\nDescription: Write it\nMetadata: {"area":"docs"}\n(Tool call #1 for \'TaskGet\' in this conversation.)',
    );
    const error = await run("TaskGet", { task_id: "9" }).catch((e: Error) => e);
    expect(String(error)).toMatch(/^TaskNotFoundError: Task not found\nArguments sent: \{"task_id":"9"\}\nWhat to do: Call TaskList/);
  });

  it("updates status with the spec's texts, and says when nothing changed", async () => {
    const { run, conversationId } = await setup();
    await run("TaskCreate", { subject: "A", description: "" });
    expect(await run("TaskUpdate", { task_id: 1, status: "in_progress" })).toBe("Update task (id=1) status.\n(Tool call #1 for 'TaskUpdate' in this conversation.)");
    expect(await run("TaskUpdate", { task_id: "1", status: "in_progress" })).toMatch(/^No updates were made to the task \(id=1\)\./);
    expect(await run("TaskUpdate", { task_id: "1", status: "completed", owner: "me" })).toMatch(
      /^Update task \(id=1\) status, owner\. Task completed\. Call TaskList now to find your next available task or see if your work unblocked others\.\n\(Tool call #3/,
    );
    expect((await getTask({ conversationId, id: "1" }))?.owner).toBe("me");
    const error = await run("TaskUpdate", { task_id: "7", status: "completed" }).catch((e: Error) => e);
    expect(String(error)).toMatch(/^TaskNotFoundError: The task \(id=7\) does not exist\.\nArguments sent: .*"task_id":"7".*\nWhat to do: Call TaskList/);
  });

  it("keeps blocking links on both sides and removes a deleted task from every chain", async () => {
    const { run, conversationId } = await setup();
    for (const s of ["a", "b", "c"]) await run("TaskCreate", { subject: s, description: "" });
    await run("TaskUpdate", { task_id: "1", add_blocks: ["2"] });
    await run("TaskUpdate", { task_id: "3", add_blocked_by: ["2"] });
    expect((await getTask({ conversationId, id: "2" }))).toMatchObject({ blockedBy: ["1"], blocks: ["3"] });
    expect(await run("TaskList", {})).toContain("2 [pending] b [blocked by 1]");
    const error = await run("TaskUpdate", { task_id: "1", add_blocks: ["42"] }).catch((e: Error) => e);
    expect(String(error)).toMatch(/^InvalidArgumentError: These ids cannot be linked: 42/);
    expect(await run("TaskUpdate", { task_id: "2", status: "deleted" })).toMatch(/^Task \(id=2\) has been deleted\./);
    expect(await getTask({ conversationId, id: "1" })).toMatchObject({ blocks: [], blockedBy: [] });
    expect(await getTask({ conversationId, id: "3" })).toMatchObject({ blocks: [], blockedBy: [] });
  });

  it("merges metadata and deletes keys set to null", async () => {
    const { run, conversationId } = await setup();
    await run("TaskCreate", { subject: "m", description: "", metadata: { a: 1, b: 2 } });
    await run("TaskUpdate", { task_id: "1", metadata: { b: null, c: 3 } });
    expect((await getTask({ conversationId, id: "1" }))?.metadata).toEqual({ a: 1, c: 3 });
  });

  it("hands out distinct sequential ids when creates race", async () => {
    const { conversationId } = await setup();
    await Promise.all(Array.from({ length: 8 }, (_, i) => createTask({ conversationId, subject: `t${i}` })));
    expect((await listTasks({ conversationId })).map((t) => t.id).sort((a, b) => Number(a) - Number(b))).toEqual(["1", "2", "3", "4", "5", "6", "7", "8"]);
  });
});
