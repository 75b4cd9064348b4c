import { describe, expect, it } from "vitest";
import { summarizeTool } from "./tool-summary";

/** A built-in tool's result as its part stores it (lib/tool-output.ts): its fields and the text the model read. */
const result = (tool: string, fields: object, text = "(the model's text)") => ({ tool, ...fields, text });
const done = (toolName: string, input: object, fields: object) =>
  summarizeTool({ toolName, state: "output-available", input, output: result(toolName, fields) });

describe("summarizeTool, from a result's data", () => {
  it("reads the task tools' fields", () => {
    expect(done("TaskCreate", { subject: "x" }, { taskId: "3", subject: "Write tests" })).toBe(
      "Created task 3 · Write tests",
    );
    expect(
      done(
        "TaskUpdate",
        { task_id: "2", status: "completed" },
        { taskId: "2", result: "updated", changed: ["status"], status: "completed" },
      ),
    ).toBe("Task 2 → Completed");
    expect(
      done(
        "TaskUpdate",
        { task_id: "2", status: "completed" },
        { taskId: "2", result: "unchanged", changed: [], status: "completed" },
      ),
    ).toBe("Task 2 unchanged");
    expect(
      done(
        "TaskUpdate",
        { task_id: "4", subject: "y" },
        { taskId: "4", result: "updated", changed: ["subject", "add_blocks"] },
      ),
    ).toBe("Task 4 updated · subject, add_blocks");
    expect(
      done("TaskUpdate", { task_id: "2", status: "deleted" }, { taskId: "2", result: "deleted", changed: [] }),
    ).toBe("Deleted task 2");
    expect(done("TaskList", {}, { total: 60, offset: 0, shown: 50 })).toBe("Listed tasks · 50");
    expect(done("TaskList", {}, { total: 2, offset: 10, shown: 0 })).toBe("Listed tasks · none");
    expect(done("PlanWrite", { content: "- a" }, { version: 2, chars: 3 })).toBe("Wrote the plan · version 2");
  });

  it("reads the workspace tools' fields", () => {
    expect(done("MemorySearch", { query: "units" }, { matches: 2, shown: 2, entries: 9 })).toBe(
      "Searched memory for “units” · 2 found",
    );
    expect(done("MemorySearch", { query: "zebra" }, { matches: 0, shown: 0, entries: 9 })).toBe(
      "Searched memory for “zebra” · none found",
    );
    expect(
      done(
        "KnowledgeRead",
        { path: "notes/api.md" },
        { path: "notes/api.md", bytes: 40, lines: { first: 1, last: 3, total: 3 } },
      ),
    ).toBe("Read notes/api.md · lines 1–3");
    // An offset past the end shows no lines.
    expect(
      done(
        "KnowledgeRead",
        { path: "a.md", offset: 9 },
        { path: "a.md", bytes: 4, lines: { first: 9, last: 8, total: 3 } },
      ),
    ).toBe("Read a.md");
    expect(
      done("KnowledgeSearch", { query: "rate limit" }, { words: ["rate", "limit"], matches: 1, everyWord: true }),
    ).toBe("Searched knowledge for “rate limit” · 1 line");
    expect(done("KnowledgeSearch", { query: "q" }, { words: ["q"], matches: 0, everyWord: true })).toBe(
      "Searched knowledge for “q” · no match",
    );
    expect(done("KnowledgeSearch", { query: "a b" }, { words: ["a", "b"], matches: 50, everyWord: false })).toBe(
      "Searched knowledge for “a b” · 50 lines",
    );
  });

  it("never reads the text of a result that has data", () => {
    const output = result("TaskCreate", { taskId: "3", subject: "Real" }, "Task (id=9) created successfully: Forged");
    expect(summarizeTool({ toolName: "TaskCreate", state: "output-available", input: {}, output })).toBe(
      "Created task 3 · Real",
    );
    expect(done("TaskList", {}, { shown: 1, text: "No tasks available." })).toBe("Listed tasks · 1");
  });

  it("shows what it can of data of another shape (an import may hold anything), and never fails", () => {
    // Data of another tool, or without its text, is no result's data: nothing is read from it.
    expect(
      summarizeTool({
        toolName: "TaskCreate",
        state: "output-available",
        input: { subject: "s" },
        output: result("TaskList", { taskId: "3" }),
      }),
    ).toBe("Creating task · s");
    expect(
      summarizeTool({
        toolName: "TaskCreate",
        state: "output-available",
        input: { subject: "s" },
        output: { tool: "TaskCreate", taskId: "3" },
      }),
    ).toBe("Creating task · s");
    expect(done("TaskUpdate", { task_id: "4" }, { changed: "subject" })).toBe("Updating task 4");
    expect(done("TaskUpdate", { task_id: "4" }, { changed: [1, { a: 1 }, "owner"] })).toBe("Task 4 updated · owner");
    expect(done("TaskList", {}, { shown: "7" })).toBe("Listed tasks · none");
    expect(done("PlanWrite", {}, { version: -1 })).toBe("Wrote the plan");
    expect(done("KnowledgeRead", { path: "a.md" }, { lines: "1–3" })).toBe("Read a.md");
    expect(done("KnowledgeSearch", { query: "q" }, { matches: 1.5 })).toBe("Searched knowledge for “q”");
    expect(done("TaskCreate", { subject: "s" }, { taskId: { id: 3 } })).toBe("Creating task · s");
    for (const output of [null, 42, [], ["TaskList"], { tool: "TaskList", text: 5 }]) {
      expect(summarizeTool({ toolName: "TaskList", state: "output-available", input: {}, output })).toBe(
        "Listed tasks · none",
      );
    }
  });
});

describe("summarizeTool, from a result stored as its text (before results held data)", () => {
  it("summarises each task tool from its input and output", () => {
    expect(
      summarizeTool({
        toolName: "TaskCreate",
        state: "output-available",
        input: { subject: "x" },
        output: "Task (id=3) created successfully: Write tests\n(Tool call #1 for 'TaskCreate' in this conversation.)",
      }),
    ).toBe("Created task 3 · Write tests");
    expect(summarizeTool({ toolName: "TaskCreate", state: "input-streaming", input: { subject: "Draft" } })).toBe(
      "Creating task · Draft",
    );
    expect(
      summarizeTool({
        toolName: "TaskUpdate",
        state: "output-available",
        input: { task_id: "2", status: "completed" },
        output: "Update task (id=2) status.",
      }),
    ).toBe("Task 2 → Completed");
    expect(
      summarizeTool({
        toolName: "TaskUpdate",
        state: "output-available",
        input: { task_id: "2", status: "in_progress" },
        output: "Update task (id=2) status.",
      }),
    ).toBe("Task 2 → In progress");
    expect(
      summarizeTool({ toolName: "TaskUpdate", state: "input-available", input: { task_id: "5", status: "cancelled" } }),
    ).toBe("Task 5 → Cancelled");
    expect(
      summarizeTool({ toolName: "TaskUpdate", state: "input-available", input: { task_id: "5", status: "someday" } }),
    ).toBe("Task 5 → someday");
    expect(
      summarizeTool({
        toolName: "TaskUpdate",
        state: "output-available",
        input: { task_id: "2", status: "deleted" },
        output: "Task (id=2) has been deleted.",
      }),
    ).toBe("Deleted task 2");
    expect(
      summarizeTool({
        toolName: "TaskUpdate",
        state: "output-available",
        input: { task_id: "4", subject: "y" },
        output: "Update task (id=4) subject.",
      }),
    ).toBe("Task 4 updated · subject");
    expect(
      summarizeTool({
        toolName: "TaskList",
        state: "output-available",
        input: {},
        output: "1 [pending] a\n2 [completed] b\n(Tool call #2 for 'TaskList' in this conversation.)",
      }),
    ).toBe("Listed tasks · 2");
    expect(
      summarizeTool({
        toolName: "TaskList",
        state: "output-available",
        input: {},
        output: "No tasks available.\n(Tool call #3 for 'TaskList' in this conversation.)",
      }),
    ).toBe("Listed tasks · none");
    const unchanged =
      "No updates were made to the task (id=2). Make sure you provided at least one field to update and the values are correct.";
    expect(
      summarizeTool({
        toolName: "TaskUpdate",
        state: "output-available",
        input: { task_id: "2", status: "pending" },
        output: unchanged,
      }),
    ).toBe("Task 2 unchanged");
    expect(
      summarizeTool({
        toolName: "TaskUpdate",
        state: "output-error",
        input: { task_id: "9" },
        errorText: "TaskNotFoundError: The task (id=9) does not exist.",
      }),
    ).toBe("Update a task · there is no task 9");
    expect(
      summarizeTool({
        toolName: "PlanWrite",
        state: "output-available",
        input: { content: "- a" },
        output: "Plan saved (version 2, 3 characters).",
      }),
    ).toBe("Wrote the plan · version 2");
    expect(
      summarizeTool({
        toolName: "TaskCreate",
        state: "output-error",
        input: {},
        errorText: "PlanModeError: PLAN MODE is on (read-only): …",
      }),
    ).toBe("Create a task · not run: plan mode is read-only");
  });

  it("summarises the workspace tools in one readable line", () => {
    const counter = (tool: string) => `\n(Tool call #1 for '${tool}' in this conversation.)`;
    expect(
      summarizeTool({
        toolName: "MemoryWrite",
        state: "output-available",
        input: { entry: "Prefers metric units" },
        output: `Memory entry saved (mem_1): Prefers metric units${counter("MemoryWrite")}`,
      }),
    ).toBe("Remembered: Prefers metric units");
    expect(summarizeTool({ toolName: "MemoryWrite", state: "input-available", input: { entry: "x" } })).toBe(
      "Remembering: x",
    );
    expect(
      summarizeTool({
        toolName: "MemoryWrite",
        state: "output-error",
        input: { entry: "Prefers metric units" },
        errorText: "DuplicateMemoryError: DuplicateMemoryError: Memory already holds this entry",
      }),
    ).toBe("Already remembered: Prefers metric units");
    expect(
      summarizeTool({
        toolName: "MemoryWrite",
        state: "output-error",
        input: { entry: "x" },
        errorText: "WorkspaceReadOnlyError: The entry was not saved.",
      }),
    ).toBe("Remember · not saved: only the workspace's owner or an admin can change it");
    expect(summarizeTool({ toolName: "mcp__files__write_file", state: "output-denied", input: { path: "a" } })).toBe(
      "write_file · files · not run",
    );
    // An MCP tool reads as "tool · server" in every state, never as the model's mcp__server__tool.
    expect(summarizeTool({ toolName: "mcp__everything__echo", state: "output-available", input: {} })).toBe(
      "Called echo · everything",
    );
    expect(summarizeTool({ toolName: "mcp__everything__echo", state: "input-available", input: {} })).toBe(
      "Calling echo · everything",
    );
    expect(
      summarizeTool({ toolName: "mcp__everything__echo", state: "output-error", input: {}, errorText: "Boom" }),
    ).toBe("echo · everything · failed");
    expect(
      summarizeTool({
        toolName: "mcp__everything__echo",
        state: "output-error",
        input: {},
        errorText: "ApprovalDeniedError: The person denied this call. Reason: not now",
      }),
    ).toBe("echo · everything · not run: you denied it");
    expect(
      summarizeTool({
        toolName: "MemorySearch",
        state: "output-available",
        input: { query: "units" },
        output: '2 memory entries match "units", best first:\n- a\n- b',
      }),
    ).toBe("Searched memory for “units” · 2 found");
    expect(
      summarizeTool({
        toolName: "MemorySearch",
        state: "output-available",
        input: { query: "zebra" },
        output: 'No memory entry matches "zebra" (the memory holds 2 entries).',
      }),
    ).toBe("Searched memory for “zebra” · none found");
    expect(
      summarizeTool({
        toolName: "KnowledgeRead",
        state: "output-available",
        input: { path: "notes/api.md" },
        output: "notes/api.md (40 bytes, 3 lines), lines 1–3:\n     1\t# API",
      }),
    ).toBe("Read notes/api.md · lines 1–3");
    expect(summarizeTool({ toolName: "KnowledgeRead", state: "input-available", input: { path: "a.md" } })).toBe(
      "Reading a.md",
    );
    expect(
      summarizeTool({
        toolName: "KnowledgeSearch",
        state: "output-available",
        input: { query: "rate limit" },
        output: '1 matching line for "rate limit" (lines with every word):\nnotes/api.md:3: x',
      }),
    ).toBe("Searched knowledge for “rate limit” · 1 line");
    expect(
      summarizeTool({
        toolName: "KnowledgeSearch",
        state: "output-available",
        input: { query: "q" },
        output: 'No line of the knowledge files matches "q".',
      }),
    ).toBe("Searched knowledge for “q” · no match");
    expect(
      summarizeTool({
        toolName: "SkillLoad",
        state: "output-available",
        input: { name: "weekly-report" },
        output: "Skill weekly-report (from this workspace): x",
      }),
    ).toBe("Loaded skill weekly-report");
    expect(
      summarizeTool({
        toolName: "KnowledgeRead",
        state: "output-error",
        input: { path: "x.md" },
        errorText: "KnowledgeFileNotFoundError: No knowledge file x.md.",
      }),
    ).toBe("Read a knowledge file · there is no file x.md");
  });
});
