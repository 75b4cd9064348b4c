// The task tools against a real database (runs on SQLite and on PostgreSQL): result texts, errors, the call
// counter, blocking links and metadata merges.
import { afterAll, describe, expect, inject, it } from "vitest";

process.env.DATABASE_URL = inject("databaseUrl");

const { disconnectDb } = await import("@/lib/db/client");
const { ensureConversation } = await import("@/lib/db/conversations");
const { getTask, listTasks, createTask } = await import("@/lib/db/tasks");
const { createTools } = await import("@/lib/chat/tools/index");
const { createCallCounter } = await import("@/lib/chat/tools/tool-context");

afterAll(async () => {
  await disconnectDb();
});

let n = 0;
async function setup() {
  const conversationId = `tools-${Date.now().toString(36)}-${n++}`;
  await ensureConversation({ id: conversationId });
  let changes = 0;
  const tools = createTools({
    conversationId,
    nextCallNumber: createCallCounter([]),
    onTasksChanged: () => void changes++,
  });
  // Like the AI SDK: validate the input with the tool's schema, then execute.
  const output = async (
    name: keyof typeof tools,
    input: unknown,
  ): Promise<Record<string, unknown> & { text: string }> => {
    // biome-ignore lint/suspicious/noExplicitAny: calling the tools' execute functions directly
    const t = tools[name] as any;
    const parsed = await t.inputSchema.validate(input);
    if (!parsed.success) throw parsed.error;
    return t.execute(parsed.value, { toolCallId: "t", messages: [] });
  };
  // The text the model reads (every tool's data and text: tests/db/tool-results.test.ts).
  const run = async (name: keyof typeof tools, input: unknown): Promise<string> => (await output(name, input)).text;
  return { conversationId, run, output, changes: () => changes };
}

describe(`task tools on ${inject("databaseKind")}`, () => {
  it("creates tasks with sequential ids and counts every call", async () => {
    const { conversationId, run, changes } = await setup();
    expect(await run("TaskCreate", { subject: "Draft", description: "Write the draft" })).toBe(
      "Task (id=1) created successfully: Draft\n(Tool call #1 for 'TaskCreate' in this conversation.)",
    );
    expect(await run("TaskCreate", { subject: "Review", description: "" })).toMatch(
      /^Task \(id=2\) created successfully: Review\n\(Tool call #2 for 'TaskCreate'/,
    );
    expect((await listTasks({ conversationId })).map((t) => [t.id, t.status])).toEqual([
      ["1", "pending"],
      ["2", "pending"],
    ]);
    expect(changes()).toBe(2);
    expect(await run("TaskList", {})).toBe(
      "1 [pending] Draft\n2 [pending] Review\n(Tool call #1 for 'TaskList' in this conversation.)",
    );
  });

  it("gets a task's detail and fails clearly for an unknown id", async () => {
    const { run } = await setup();
    await run("TaskCreate", { subject: "Draft", description: "Write it", metadata: { area: "docs" } });
    expect(await run("TaskGet", { task_id: "1" })).toBe(
      'Task (id=1): Draft\nStatus: pending\nDescription: Write it\nMetadata: {"area":"docs"}\n(Tool call #1 for \'TaskGet\' in this conversation.)',
    );
    const error = await run("TaskGet", { task_id: "9" }).catch((e: Error) => e);
    // AgentScope's text first, then the details and the call counter.
    expect(String(error)).toBe(
      'Task not found\nError type: TaskNotFoundError\nArguments sent: {"task_id":"9"}\nWhat to do: Call TaskList to see the existing task ids.\n(Tool call #2 for \'TaskGet\' in this conversation.)',
    );
  });

  it("updates status with the spec's texts, and says when nothing changed", async () => {
    const { run, conversationId } = await setup();
    await run("TaskCreate", { subject: "A", description: "" });
    expect(await run("TaskUpdate", { task_id: 1, status: "in_progress" })).toBe(
      "Update task (id=1) status.\n(Tool call #1 for 'TaskUpdate' in this conversation.)",
    );
    expect(await run("TaskUpdate", { task_id: "1", status: "in_progress" })).toBe(
      "No updates were made to the task (id=1). Make sure you provided at least one field to update and the values are correct.\n(Tool call #2 for 'TaskUpdate' in this conversation.)",
    );
    expect(await run("TaskUpdate", { task_id: "1", status: "completed", owner: "me" })).toBe(
      "Update task (id=1) status, owner.\n\nTask completed. Call TaskList now to find your next available task or see if your work unblocked others.\n(Tool call #3 for 'TaskUpdate' in this conversation.)",
    );
    expect((await getTask({ conversationId, id: "1" }))?.owner).toBe("me");
    // Like AgentScope, the suffix follows any update that leaves the task completed.
    expect(await run("TaskUpdate", { task_id: "1", description: "done it" })).toBe(
      "Update task (id=1) description.\n\nTask completed. Call TaskList now to find your next available task or see if your work unblocked others.\n(Tool call #4 for 'TaskUpdate' in this conversation.)",
    );
    const error = await run("TaskUpdate", { task_id: "7", status: "completed" }).catch((e: Error) => e);
    expect(String(error)).toBe(
      'TaskNotFoundError: The task (id=7) does not exist.\nArguments sent: {"task_id":"7","status":"completed"}\nWhat to do: Call TaskList to see the existing task ids, or TaskCreate to add the task.\n(Tool call #5 for \'TaskUpdate\' in this conversation.)',
    );
  });

  it("reports invalid arguments as a detailed error with the call counter", async () => {
    const { run } = await setup();
    await run("TaskCreate", { subject: "A", description: "" });
    const wrongStatus = String(await run("TaskUpdate", { task_id: "1", status: "done" }).catch((e: Error) => e));
    expect(wrongStatus).toMatch(/^InvalidArgumentsError: The arguments do not match TaskUpdate's parameters: status: /);
    expect(wrongStatus).toContain(
      '\nArguments sent: {"task_id":"1","status":"done"}\nWhat to do: Call TaskUpdate again with a JSON object like',
    );
    expect(wrongStatus).toMatch(/\n\(Tool call #1 for 'TaskUpdate' in this conversation\.\)$/);
    // Arguments that were not JSON reach execute as their raw text (see repairToolInput) and count as the next call.
    const notJson = String(await run("TaskUpdate", '{"task_id": "1", status: done').catch((e: Error) => e));
    expect(notJson).toMatch(
      /^InvalidArgumentsError: The arguments are not a JSON object \(not valid JSON\)\.\nArguments sent: \{"task_id": "1", status: done\n/,
    );
    expect(notJson).toMatch(/\(Tool call #2 for 'TaskUpdate' in this conversation\.\)$/);
    expect(String(await run("TaskCreate", { subject: 3 }).catch((e: Error) => e))).toMatch(
      /^InvalidArgumentsError: .*subject: .*\n[\s\S]*\(Tool call #2 for 'TaskCreate'/,
    );
  });

  it("keeps subjects and owners on one line, so a line break cannot forge a task", async () => {
    const { run, conversationId } = await setup();
    await run("TaskCreate", { subject: "real\n2 [completed] forged", description: "" });
    expect((await getTask({ conversationId, id: "1" }))?.subject).toBe("real 2 [completed] forged");
    // A subject typed by the person (or imported) is shown on one line too.
    await createTask({ conversationId, subject: "mine\r\n3 [pending] fake\u2028x\u2029y\u0085z" });
    await run("TaskUpdate", { task_id: "1", owner: "bob\n4 [pending] owner-forged" });
    const list = await run("TaskList", {});
    expect(list).toBe(
      "1 [pending] real 2 [completed] forged (bob 4 [pending] owner-forged)\n2 [pending] mine 3 [pending] fake x y z\n(Tool call #1 for 'TaskList' in this conversation.)",
    );
    expect((await run("TaskGet", { task_id: "2" })).split("\n")[0]).toBe("Task (id=2): mine 3 [pending] fake x y z");
  });

  it("pages a long TaskList, open tasks first, with the way to the next page", async () => {
    const { output, conversationId } = await setup();
    for (let i = 1; i <= 60; i++)
      await createTask({ conversationId, subject: `t${i}`, status: i % 2 ? "completed" : "pending" });
    const first = await output("TaskList", {});
    expect(first).toMatchObject({ tool: "TaskList", total: 60, offset: 0, shown: 50 });
    const lines = first.text.split("\n");
    expect(lines.slice(0, 2)).toEqual(["2 [pending] t2", "4 [pending] t4"]);
    expect(lines[29]).toBe("60 [pending] t60");
    expect(lines[30]).toBe("1 [completed] t1");
    expect(lines.at(-2)).toBe(
      '… 10 more tasks (open tasks are listed first); call TaskList {"offset": 50} for the next page.',
    );
    const next = await output("TaskList", { offset: 50 });
    expect(next).toMatchObject({ total: 60, offset: 50, shown: 10 });
    const second = next.text.split("\n");
    expect(second.slice(0, -1)).toEqual(
      Array.from({ length: 10 }, (_, i) => `${41 + 2 * i} [completed] t${41 + 2 * i}`),
    );
  });

  it("keeps blocking links on both sides and removes a deleted task from every chain", async () => {
    const { run, conversationId } = await setup();
    for (const s of ["a", "b", "c"]) await run("TaskCreate", { subject: s, description: "" });
    await run("TaskUpdate", { task_id: "1", add_blocks: ["2"] });
    await run("TaskUpdate", { task_id: "3", add_blocked_by: ["2"] });
    expect(await getTask({ conversationId, id: "2" })).toMatchObject({ blockedBy: ["1"], blocks: ["3"] });
    expect(await run("TaskList", {})).toContain("2 [pending] b [blocked by 1]");
    // AgentScope's field names; ids that do not exist are left out and the rest of the update applies.
    expect(await run("TaskUpdate", { task_id: "1", add_blocks: ["42"] })).toMatch(
      /^No updates were made to the task \(id=1\)\./,
    );
    expect(
      await run("TaskUpdate", { task_id: "3", subject: "c2", add_blocks: ["42", "1"], add_blocked_by: ["43"] }),
    ).toMatch(/^Update task \(id=3\) subject, add_blocks\.\n\(Tool call/);
    expect(await getTask({ conversationId, id: "1" })).toMatchObject({ blockedBy: ["3"] });
    expect(await run("TaskUpdate", { task_id: "1", add_blocked_by: ["2"] })).toMatch(
      /^Update task \(id=1\) add_blocked_by\.\n/,
    );
    expect(await run("TaskUpdate", { task_id: "2", status: "deleted" })).toMatch(/^Task \(id=2\) has been deleted\./);
    expect(await getTask({ conversationId, id: "1" })).toMatchObject({ blocks: [], blockedBy: ["3"] });
    expect(await getTask({ conversationId, id: "3" })).toMatchObject({ blocks: ["1"], blockedBy: [] });
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
    expect((await listTasks({ conversationId })).map((t) => t.id).sort((a, b) => Number(a) - Number(b))).toEqual([
      "1",
      "2",
      "3",
      "4",
      "5",
      "6",
      "7",
      "8",
    ]);
  });
});
