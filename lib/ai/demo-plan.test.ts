import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { renderModeReminder } from "../agent/plan-mode.ts";
import { decide } from "./demo-model.ts";
import { planSteps } from "./demo-plan.ts";
import { PANEL_TIP } from "./demo-tasks.ts";

const user = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const call = (toolName: string, input: unknown = {}): LanguageModelV4Prompt[number] => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: `c-${toolName}`, toolName, input }],
});
const result = (toolName: string, value: string, error = false): LanguageModelV4Prompt[number] => ({
  role: "tool",
  content: [
    {
      type: "tool-result",
      toolCallId: `c-${toolName}`,
      toolName,
      output: { type: error ? "error-text" : "text", value },
    },
  ],
});
const PLAN = user(renderModeReminder("plan").text);

describe("demo model in plan mode", () => {
  it("reads the tasks, writes a markdown plan with PlanWrite, then points at Approve and build", () => {
    const asked = [user("plan a blog post"), PLAN];
    expect(decide(asked).calls).toEqual([{ toolName: "TaskList", input: {} }]);
    const listed = [...asked, call("TaskList"), result("TaskList", "No tasks available.")];
    const write = decide(listed).calls;
    expect(write).toHaveLength(1);
    expect(write![0]!.toolName).toBe("PlanWrite");
    const content = String(write![0]!.input.content);
    expect(content).toMatch(/^# Plan: a blog post\n/);
    expect(planSteps(content)).toEqual([
      "Outline a blog post",
      "Draft a blog post",
      "Review a blog post",
      "Publish a blog post",
    ]);
    const done = decide([
      ...listed,
      call("PlanWrite", { content }),
      result("PlanWrite", "Plan saved (version 1, 120 characters)."),
    ]);
    expect(done.calls).toBeUndefined();
    expect(done.text).toContain("(version 1)");
    expect(done.text).toContain("Approve and build");
    // Any request while the newest Mode reminder says plan is planned; the steps a person lists are the plan's.
    const own = decide([
      PLAN,
      user("x"),
      user("plan: outline; write; ship"),
      call("TaskList"),
      result("TaskList", "No tasks available."),
    ]);
    expect(planSteps(String(own.calls?.[0]?.input.content))).toEqual(["outline", "write", "ship"]);
  });

  it("asked for tasks while planning, calls TaskCreate, gets the refusal and says so", () => {
    const asked = [PLAN, user("add tasks: a; b")];
    expect(decide(asked).calls?.map((c) => c.toolName)).toEqual(["TaskCreate", "TaskCreate"]);
    const refused =
      "PlanModeError: PLAN MODE is on (read-only): TaskCreate would change …\n(Tool call #1 for 'TaskCreate' in this conversation.)";
    const answer = decide([...asked, call("TaskCreate"), result("TaskCreate", refused, true)]);
    expect(answer.calls).toBeUndefined();
    expect(answer.text).toMatch(/^Plan mode is on \(read-only\), so I couldn't change the task list/);
  });

  it("right after the BUILD reminder, turns the approved plan's list items into tasks", () => {
    const build = user(
      renderModeReminder("build", {
        content: "# Plan\n\n- Outline it\n* Write &lt;it&gt;\n1. Ship it\nnot a step",
        version: 1,
      }).text,
    );
    const prompt = [PLAN, user("plan it"), user("The plan is approved: build it."), build];
    const calls = decide(prompt).calls;
    expect(calls).toEqual(
      ["Outline it", "Write <it>", "Ship it"].map((subject, i) => ({
        toolName: "TaskCreate",
        input: { subject, description: `Step ${i + 1} of 3 of the approved plan.` },
      })),
    );
    // A description never repeats its subject (the panel would show it twice).
    for (const { input } of calls ?? []) {
      const { subject, description } = input as { subject: string; description: string };
      expect(description.toLowerCase()).not.toContain(subject.toLowerCase());
    }
    const after = decide([
      ...prompt,
      call("TaskCreate"),
      result("TaskCreate", "Task (id=1) created successfully: Outline it"),
    ]);
    expect(after.text).toBe(`I added a task:\n\n- #1 Outline it\n\n${PANEL_TIP}`);
    // Later messages in build mode are ordinary again.
    expect(decide([...prompt, user("hello")]).text).toMatch(/^Hello!/);
  });
});
