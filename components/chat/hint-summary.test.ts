import { describe, expect, it } from "vitest";
import { summarizeHint } from "./hint-summary";

const base = { source: { label: "System", sublabel: "Runtime State" }, text: "", createdAt: "2026-07-01T12:05:00.000Z" };

describe("summarizeHint", () => {
  it("shows the time in the hint's zone, open tasks, context share and custom fields", () => {
    const items = summarizeHint(
      {
        ...base,
        fields: {
          "current-time": "2026-07-01T14:05:00",
          timezone: "Europe/Berlin",
          tasks: "You have 1 in-progress tasks and 1 pending tasks. Use `TaskList` to view them if you don't know.",
          "context-length": "Your current context contains 620 tokens. When reaching 800 tokens, your context will be compressed.",
          workspace: "/home/friday",
        },
      },
      { contextWindow: 1000, locale: "en-GB" },
    );
    expect(items).toEqual([
      { kind: "time", label: "14:05 Europe/Berlin" },
      { kind: "tasks", label: "2 open tasks" },
      { kind: "context", label: "62% of context" },
      { kind: "custom", label: "workspace: /home/friday" },
    ]);
  });

  it("marks the person's task edits and survives odd stored data", () => {
    const items = summarizeHint({
      ...base,
      createdAt: "not a date",
      fields: { "current-time": "x", tasks: "The user updated the task list. You have 0 in-progress tasks and 1 pending tasks." },
    });
    expect(items).toEqual([
      { kind: "time", label: "x" },
      { kind: "tasks", label: "You updated tasks · 1 open task" },
    ]);
  });

  it("says a Mode reminder in plain words", () => {
    const mode = { ...base, source: { label: "System", sublabel: "Mode" } };
    expect(summarizeHint({ ...mode, fields: { mode: "plan" } })).toEqual([{ kind: "mode", label: "Plan mode on" }]);
    expect(summarizeHint({ ...mode, fields: { mode: "build", plan: "approved" } })).toEqual([{ kind: "mode", label: "Build mode: plan approved" }]);
    expect(summarizeHint({ ...mode, fields: { mode: "build", plan: "none" } })).toEqual([{ kind: "mode", label: "Build mode" }]);
  });

  it("says a Workspace reminder is a workspace update, whatever its fields", () => {
    const workspace = { ...base, source: { label: "System", sublabel: "Workspace" } };
    expect(summarizeHint({ ...workspace, fields: { changes: "memory: 1 added; knowledge: notes.md (120 bytes) added" } })).toEqual([
      { kind: "workspace", label: "Workspace update" },
    ]);
  });
});
