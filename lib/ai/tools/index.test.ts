import { describe, expect, it } from "vitest";
import { createTools, TOOL_DEFINITIONS, TOOL_NAMES } from "./index.ts";

const describeTools = (tools: ReturnType<typeof createTools>) =>
  JSON.stringify(Object.entries(tools).map(([name, t]) => [name, t.description, t.inputSchema]));

describe("the tool list in plan mode", () => {
  it("declares what each tool does; PlanWrite is always there", () => {
    expect(TOOL_DEFINITIONS.map((d) => [d.name, d.access])).toEqual([
      ["TaskCreate", "write"],
      ["TaskGet", "read"],
      ["TaskList", "read"],
      ["TaskUpdate", "write"],
      ["PlanWrite", "plan"],
    ]);
    expect(TOOL_NAMES).toContain("PlanWrite");
  });

  it("is the same list in both modes, and a write tool refuses while planning, counted, without running", async () => {
    const counts = new Map<string, number>();
    const context = (mode: "plan" | "build") => ({
      conversationId: "no-such-conversation",
      nextCallNumber: (name: string) => {
        counts.set(name, (counts.get(name) ?? 0) + 1);
        return counts.get(name)!;
      },
      onTasksChanged: () => {
        throw new Error("the tasks must not change");
      },
      mode: () => mode,
    });
    const planning = createTools(context("plan"));
    expect(describeTools(planning)).toBe(describeTools(createTools(context("build"))));
    for (const name of ["TaskCreate", "TaskUpdate"] as const) {
      const args = name === "TaskCreate" ? { subject: "x", description: "y" } : { task_id: "1", status: "completed" };
      const error = await Promise.resolve(planning[name].execute!(args, { toolCallId: "c", messages: [], context: {} } as never)).catch((e: Error) => e);
      expect(String(error)).toMatch(new RegExp(`^PlanModeError: PLAN MODE is on \\(read-only\\): ${name} `));
      expect(String(error)).toContain(`Arguments sent: ${JSON.stringify(args)}`);
      expect(String(error)).toContain("What to do: Keep investigating with the read tools (TaskList, TaskGet) and write your plan with PlanWrite");
      expect(String(error).endsWith(`\n(Tool call #1 for '${name}' in this conversation.)`)).toBe(true);
    }
  });
});
