import { describe, expect, it } from "vitest";
import { summarizeTool } from "./tool-summary";

describe("summarizeTool", () => {
  it("summarises each task tool from its input and output", () => {
    expect(
      summarizeTool({ toolName: "TaskCreate", state: "output-available", input: { subject: "x" }, output: "Task (id=3) created successfully: Write tests\n(Tool call #1 for 'TaskCreate' in this conversation.)" }),
    ).toBe("Created task 3 · Write tests");
    expect(summarizeTool({ toolName: "TaskCreate", state: "input-streaming", input: { subject: "Draft" } })).toBe("Creating task · Draft");
    expect(summarizeTool({ toolName: "TaskUpdate", state: "output-available", input: { task_id: "2", status: "completed" }, output: "Update task (id=2) status." })).toBe(
      "Task 2 → completed",
    );
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
      "TaskUpdate failed · TaskNotFoundError",
    );
    expect(summarizeTool({ toolName: "PlanWrite", state: "output-available", input: { content: "- a" }, output: "Plan saved (version 2, 3 characters)." })).toBe(
      "Wrote the plan · version 2",
    );
    expect(summarizeTool({ toolName: "TaskCreate", state: "output-error", input: {}, errorText: "PlanModeError: PLAN MODE is on (read-only): …" })).toBe(
      "TaskCreate failed · PlanModeError",
    );
  });
});
