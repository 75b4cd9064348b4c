import { describe, expect, it } from "vitest";
import { summarizeTool } from "./tool-summary";

describe("summarizeTool", () => {
  it("summarises each task tool from its input and output", () => {
    expect(
      summarizeTool({ toolName: "TaskCreate", state: "output-available", input: { subject: "x" }, output: "Task (id=3) created successfully: Write tests\n(Tool call #1 for 'TaskCreate' in this conversation.)" }),
    ).toBe("Created task 3 · Write tests");
    expect(summarizeTool({ toolName: "TaskCreate", state: "input-streaming", input: { subject: "Draft" } })).toBe("Creating task · Draft");
    expect(summarizeTool({ toolName: "TaskUpdate", state: "output-available", input: { task_id: "2", status: "completed" }, output: "Update task (id=2) status." })).toBe(
      "Task 2 → Completed",
    );
    expect(summarizeTool({ toolName: "TaskUpdate", state: "output-available", input: { task_id: "2", status: "in_progress" }, output: "Update task (id=2) status." })).toBe(
      "Task 2 → In progress",
    );
    expect(summarizeTool({ toolName: "TaskUpdate", state: "input-available", input: { task_id: "5", status: "cancelled" } })).toBe("Task 5 → Cancelled");
    expect(summarizeTool({ toolName: "TaskUpdate", state: "input-available", input: { task_id: "5", status: "someday" } })).toBe("Task 5 → someday");
    expect(summarizeTool({ toolName: "TaskUpdate", state: "output-available", input: { task_id: "2", status: "deleted" }, output: "Task (id=2) has been deleted." })).toBe(
      "Deleted task 2",
    );
    expect(summarizeTool({ toolName: "TaskUpdate", state: "output-available", input: { task_id: "4", subject: "y" }, output: "Update task (id=4) subject." })).toBe(
      "Task 4 updated · subject",
    );
    expect(summarizeTool({ toolName: "TaskList", state: "output-available", input: {}, output: "1 [pending] a\n2 [completed] b\n(Tool call #2 for 'TaskList' in this conversation.)" })).toBe(
      "Listed tasks · 2",
    );
    expect(summarizeTool({ toolName: "TaskUpdate", state: "output-error", input: { task_id: "9" }, errorText: "TaskNotFoundError: The task (id=9) does not exist." })).toBe(
      "Update a task · there is no task 9",
    );
    expect(summarizeTool({ toolName: "PlanWrite", state: "output-available", input: { content: "- a" }, output: "Plan saved (version 2, 3 characters)." })).toBe(
      "Wrote the plan · version 2",
    );
    expect(summarizeTool({ toolName: "TaskCreate", state: "output-error", input: {}, errorText: "PlanModeError: PLAN MODE is on (read-only): …" })).toBe(
      "Create a task · not run: plan mode is read-only",
    );
  });

  it("summarises the workspace tools in one readable line", () => {
    const counter = (tool: string) => `\n(Tool call #1 for '${tool}' in this conversation.)`;
    expect(
      summarizeTool({ toolName: "MemoryWrite", state: "output-available", input: { entry: "Prefers metric units" }, output: `Memory entry saved (mem_1): Prefers metric units${counter("MemoryWrite")}` }),
    ).toBe("Remembered: Prefers metric units");
    expect(summarizeTool({ toolName: "MemoryWrite", state: "input-available", input: { entry: "x" } })).toBe("Remembering: x");
    expect(
      summarizeTool({ toolName: "MemoryWrite", state: "output-error", input: { entry: "Prefers metric units" }, errorText: "DuplicateMemoryError: DuplicateMemoryError: Memory already holds this entry" }),
    ).toBe("Already remembered: Prefers metric units");
    expect(summarizeTool({ toolName: "MemoryWrite", state: "output-error", input: { entry: "x" }, errorText: "WorkspaceReadOnlyError: The entry was not saved." })).toBe(
      "Remember · not saved: only the workspace's owner or an admin can change it",
    );
    expect(summarizeTool({ toolName: "mcp__files__write_file", state: "output-denied", input: { path: "a" } })).toBe("mcp__files__write_file · not run");
    expect(summarizeTool({ toolName: "MemorySearch", state: "output-available", input: { query: "units" }, output: '2 memory entries match "units", best first:\n- a\n- b' })).toBe(
      "Searched memory for “units” · 2 found",
    );
    expect(summarizeTool({ toolName: "MemorySearch", state: "output-available", input: { query: "zebra" }, output: 'No memory entry matches "zebra" (the memory holds 2 entries).' })).toBe(
      "Searched memory for “zebra” · none found",
    );
    expect(
      summarizeTool({ toolName: "KnowledgeRead", state: "output-available", input: { path: "notes/api.md" }, output: "notes/api.md (40 bytes, 3 lines), lines 1–3:\n     1\t# API" }),
    ).toBe("Read notes/api.md · lines 1–3");
    expect(summarizeTool({ toolName: "KnowledgeRead", state: "input-available", input: { path: "a.md" } })).toBe("Reading a.md");
    expect(
      summarizeTool({ toolName: "KnowledgeSearch", state: "output-available", input: { query: "rate limit" }, output: '1 matching line for "rate limit" (lines with every word):\nnotes/api.md:3: x' }),
    ).toBe("Searched knowledge for “rate limit” · 1 line");
    expect(summarizeTool({ toolName: "KnowledgeSearch", state: "output-available", input: { query: "q" }, output: 'No line of the knowledge files matches "q".' })).toBe(
      "Searched knowledge for “q” · no match",
    );
    expect(summarizeTool({ toolName: "SkillLoad", state: "output-available", input: { name: "weekly-report" }, output: "Skill weekly-report (from this workspace): x" })).toBe(
      "Loaded skill weekly-report",
    );
    expect(summarizeTool({ toolName: "KnowledgeRead", state: "output-error", input: { path: "x.md" }, errorText: "KnowledgeFileNotFoundError: No knowledge file x.md." })).toBe(
      "Read a knowledge file · there is no file x.md",
    );
  });
});
