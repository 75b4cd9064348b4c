import { describe, expect, it } from "vitest";
import { summarizeHint } from "./hint-summary";

const base = {
  source: { label: "System", sublabel: "Runtime State" },
  text: "",
  createdAt: "2026-07-01T12:05:00.000Z",
};

describe("summarizeHint", () => {
  it("says in plain words what was updated: the time in the hint's zone, open tasks, how full the context is, custom fields", () => {
    const items = summarizeHint(
      {
        ...base,
        fields: {
          "current-time": "2026-07-01T14:05:00",
          timezone: "Europe/Berlin",
          tasks: "You have 1 in-progress tasks and 1 pending tasks. Use `TaskList` to view them if you don't know.",
          "context-length":
            "Your current context contains 620 tokens. When reaching 800 tokens, your context will be compressed.",
          workspace: "/home/friday",
        },
      },
      { contextWindow: 1000, locale: "en-GB" },
    );
    expect(items).toEqual([
      { kind: "time", label: "Time update", detail: "14:05 Europe/Berlin" },
      { kind: "tasks", label: "Task update", detail: "2 open tasks" },
      { kind: "context", label: "Context 62 % full" },
      { kind: "custom", label: "workspace", detail: "/home/friday" },
    ]);
  });

  it("marks the person's task edits and survives odd stored data", () => {
    const items = summarizeHint({
      ...base,
      createdAt: "not a date",
      fields: {
        "current-time": "x",
        tasks: "The user updated the task list. You have 0 in-progress tasks and 1 pending tasks.",
      },
    });
    expect(items).toEqual([
      { kind: "time", label: "Time update", detail: "x" },
      { kind: "tasks", label: "Task update", detail: "you changed the list, 1 open task" },
    ]);
  });

  it("joins the time since the last message to the time, and says context in tokens when the window is unknown", () => {
    const items = summarizeHint(
      {
        ...base,
        fields: {
          "current-time": "2026-07-01T14:05:00",
          timezone: "UTC",
          "time-since-last-message": "2 hours since the person's previous message",
          "context-length": "Your current context contains 1234 tokens.",
          tasks: "no tasks",
        },
      },
      { locale: "en-GB" },
    );
    expect(items).toEqual([
      { kind: "time", label: "Time update", detail: "12:05 UTC, 2 hours since your last message" },
      { kind: "tasks", label: "Task update" },
      { kind: "context", label: "Context update", detail: "1,234 tokens" },
    ]);
    const since = (text: string) =>
      summarizeHint({ ...base, fields: { "time-since-last-message": text } }, { locale: "en-GB" })[0]?.detail;
    expect(since("2 h 15 min since your last reply")).toBe("2 h 15 min since the last reply");
  });

  it("says a Mode reminder in plain words", () => {
    const mode = { ...base, source: { label: "System", sublabel: "Mode" } };
    expect(summarizeHint({ ...mode, fields: { mode: "plan" } })).toEqual([{ kind: "mode", label: "Plan mode on" }]);
    expect(summarizeHint({ ...mode, fields: { mode: "build", plan: "approved" } })).toEqual([
      { kind: "mode", label: "Build mode: plan approved" },
    ]);
    expect(summarizeHint({ ...mode, fields: { mode: "build", plan: "none" } })).toEqual([
      { kind: "mode", label: "Build mode" },
    ]);
  });

  it("says a Workspace reminder is a workspace update, whatever its fields", () => {
    const workspace = { ...base, source: { label: "System", sublabel: "Workspace" } };
    expect(
      summarizeHint({ ...workspace, fields: { changes: "memory: 1 added; knowledge: notes.md (120 bytes) added" } }),
    ).toEqual([{ kind: "workspace", label: "Workspace update" }]);
  });

  it("names MCP tools that changed under the conversation", () => {
    const workspace = { ...base, source: { label: "System", sublabel: "Workspace" } };
    expect(
      summarizeHint({
        ...workspace,
        fields: { changes: "MCP: server beta added, tool mcp__a__b removed", mcpTools: "2" },
      }),
    ).toEqual([{ kind: "workspace", label: "MCP tools changed", detail: "server beta added, tool mcp__a__b removed" }]);
  });

  it("names the MCP tools a conversation's list left out, per server", () => {
    const workspace = { ...base, source: { label: "System", sublabel: "Workspace" } };
    expect(summarizeHint({ ...workspace, fields: { mcpLeftOut: "many 872, deep 2" } })).toEqual([
      { kind: "workspace", label: "MCP tools left out", detail: "many 872, deep 2" },
    ]);
  });
});

describe("the Continue reminder", () => {
  it("says in plain words that the model was asked to go on", () => {
    const data = {
      source: { label: "System", sublabel: "Continue" },
      fields: {},
      text: "<system-reminder>\nx\n</system-reminder>",
      createdAt: "2026-07-01T10:00:00Z",
    };
    expect(summarizeHint(data)).toEqual([{ kind: "continue", label: "Asked to continue" }]);
  });
});

describe("the step limit", () => {
  it("says in plain words that the reply made the most model calls it may", () => {
    const data = {
      source: { label: "System", sublabel: "Steps" },
      fields: { steps: "20" },
      text: "<system-reminder>\nx\n</system-reminder>",
      createdAt: "2026-07-01T10:00:00Z",
    };
    expect(summarizeHint(data)).toEqual([{ kind: "steps", label: "Step limit reached", detail: "20 model calls" }]);
  });

  it("says which subagents finished in the background by their labels, in words, not by agent keys", () => {
    const source = { label: "System", sublabel: "Subagents" };
    expect(
      summarizeHint({
        ...base,
        source,
        fields: { agents: "agent:general-purpose:1 done", ended: "“summarise the notes” finished" },
      }),
    ).toEqual([{ kind: "agents", label: "Subagent finished", detail: "“summarise the notes” finished" }]);
    // A hint stored before the words were kept: the agent, not its key.
    expect(
      summarizeHint({
        ...base,
        source,
        fields: { agents: "agent:general-purpose:1 done, agent:research:2 error, +2" },
      }),
    ).toEqual([{ kind: "agents", label: "4 subagents finished", detail: "general-purpose done, research error, +2" }]);
  });

  it("says a State hint as State · NAME with the changed fields, or that the source is unavailable", () => {
    const state = { ...base, source: { label: "State", sublabel: "deploy" } };
    expect(
      summarizeHint({
        ...state,
        fields: { status: "red", note: "x".repeat(60) },
        state: { values: { status: "red" } },
      }),
    ).toEqual([{ kind: "state", label: "State · deploy", detail: `status red, note ${"x".repeat(39)}…` }]);
    expect(
      summarizeHint({
        ...state,
        fields: { unavailable: "since 2026-07-01T12:00:00Z: it answered HTTP 500" },
        state: { values: {}, unavailableSince: "2026-07-01T12:00:00Z" },
      }),
    ).toEqual([{ kind: "state", label: "State · deploy", detail: "unavailable" }]);
  });
});
