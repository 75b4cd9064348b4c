// What the next call's input tells the agent, folded turn by turn, against a full scan of the same messages; and the
// step's decision on it (lib/agent/step-decision.ts).
import { describe, expect, it } from "vitest";
import { scanContext } from "../../agent/hints/scan-context.ts";
import { resolveSettings } from "../../agent/settings.ts";
import { decideStep, startStrategy } from "../../agent/step-decision.ts";
import type { ChatMessage, Task } from "../../chat-message.ts";
import { knownOf } from "./known.ts";

const settings = resolveSettings({});
const source = settings.injection.injectionSource;
const now = new Date("2026-11-30T09:00:00Z");
const task: Task = {
  id: "1",
  subject: "Pack",
  description: "",
  status: "pending",
  blocks: [],
  blockedBy: [],
  metadata: {},
  createdAt: "",
  updatedAt: "",
};

const text = (id: string, role: "user" | "assistant" = "user"): ChatMessage => ({
  id,
  role,
  parts: [{ type: "text", text: id }],
  metadata: {},
});
const timeHint = (id: string, at: string): ChatMessage => ({
  id,
  role: "assistant",
  parts: [
    {
      type: "data-hint",
      id: `h-${id}`,
      data: {
        source,
        fields: {},
        text: `<system-reminder><current-time>${at}</current-time></system-reminder>`,
        createdAt: at,
      },
    },
  ],
  metadata: {},
});
const taskCall = (id: string): ChatMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "tool-TaskList", toolCallId: `c-${id}`, state: "output-available", input: {}, output: [] } as never],
  metadata: {},
});

const reply: ChatMessage = { id: "r", role: "assistant", parts: [], metadata: {} };

function hintFor(history: ChatMessage[], tasks: Task[]) {
  const decision = decideStep({
    stepIndex: 0,
    replyId: reply.id,
    now,
    newId: () => "h",
    settings,
    contextWindow: 128_000,
    inputTokens: 10,
    firstCallInputTokens: 10,
    compressed: false,
    known: knownOf({ tail: history, reply, settings }),
    state: { mode: "build", plan: null, tasks, taskEdits: 0 },
    strategy: startStrategy({}),
    prices: { cachedRatio: 0.5, writeRatio: 1 },
    neutralize: (t) => t,
    hintMaxChars: 4096,
  });
  return decision.chunks.length ? decision : undefined;
}

describe("knownOf and the step's decision", () => {
  it("decides as a full scan of the history would, turn after turn, for a task list seen long ago", async () => {
    const history: ChatMessage[] = [
      text("go"),
      taskCall("a1"),
      ...Array.from({ length: 400 }, (_, i) => text(`m${i}`, i % 2 ? "assistant" : "user")),
    ];
    history.push(timeHint("t1", "2026-11-30T08:30:00"));
    for (let turn = 0; turn < 3; turn++) {
      history.push(text(`q${turn}`));
      const full = scanContext(history, { source, taskToolNames: settings.injection.taskToolNames, openTasks: true });
      expect(full.tasksSeen).toBe(true);
      // The time is 30 minutes old and the tasks were listed: nothing to say.
      expect(hintFor([...history], [task])).toBeUndefined();
    }
    // The same conversation without the task tool call: the open task is announced.
    const unseen = history.filter((m) => m.id !== "a1");
    const hint = hintFor(unseen, [task]);
    expect(hint?.chunks[0]).toMatchObject({ type: "data-hint" });
    expect(JSON.stringify(hint)).toContain("pending tasks");
    // A newer time hint than the one kept wins; with no time hint at all, the time is given.
    const stale = [text("a"), timeHint("old", "2026-11-29T01:00:00"), text("b")];
    expect(JSON.stringify(hintFor(stale, []))).toContain("current-time");
    expect(hintFor([...stale, timeHint("new", "2026-11-30T08:59:00"), text("c")], [])).toBeUndefined();
    expect(JSON.stringify(hintFor([text("hello"), text("again")], []))).toContain("current-time");
  });

  it("reads what the told-once hints told from the tail and the reply, and a noticed edit only while its reply is there", () => {
    const workspaceHint = (id: string, revision: string): ChatMessage => ({
      id,
      role: "assistant",
      parts: [
        {
          type: "data-hint",
          id: `h-${id}`,
          data: { source: { label: "System", sublabel: "Workspace" }, fields: {}, text: "", createdAt: "", revision },
        },
      ],
      metadata: {},
    });
    const tail = [text("a"), workspaceHint("w1", "3:0"), text("b")];
    expect(knownOf({ tail, reply, settings }).told.workspaceRevision).toBe("3:0");
    const replying = { ...workspaceHint("r", "4:0"), id: "r" };
    expect(knownOf({ tail, reply: replying, settings }).told.workspaceRevision).toBe("4:0");
    // A regenerated reply that carried a hint is not in the tail: nothing of it is known.
    expect(knownOf({ tail: [text("a"), text("b")], reply, settings }).told.workspaceRevision).toBeUndefined();
    expect(knownOf({ tail, reply, settings, noticed: { count: 2, replyId: "w1" } }).noticedEdits).toBe(2);
    expect(knownOf({ tail, reply, settings, noticed: { count: 2, replyId: "r" } }).noticedEdits).toBe(2);
    expect(knownOf({ tail, reply, settings, noticed: { count: 2, replyId: "gone" } }).noticedEdits).toBe(0);
  });

  it("knows the agent changed its tasks after it last saw the list: folded message by message as a full scan says", () => {
    const call = (id: string, name: string): ChatMessage => ({
      id,
      role: "assistant",
      parts: [
        { type: `tool-${name}`, toolCallId: `c-${id}`, state: "output-available", input: {}, output: "" } as never,
      ],
      metadata: {},
    });
    const listHint = (id: string): ChatMessage => ({
      id,
      role: "assistant",
      parts: [
        {
          type: "data-hint",
          id: `h-${id}`,
          data: {
            source,
            fields: { tasks: "…" },
            text: "<system-reminder><tasks>…</tasks></system-reminder>",
            createdAt: "",
          },
        },
      ],
      metadata: {},
    });
    const cases: Array<[ChatMessage[], boolean]> = [
      [[text("a"), call("c1", "TaskCreate")], true],
      [[call("c1", "TaskCreate"), call("l1", "TaskList")], false],
      [[call("l1", "TaskList"), call("u1", "TaskUpdate")], true],
      [[call("u1", "TaskUpdate"), listHint("h1")], false],
      [[listHint("h1"), text("b"), call("g1", "TaskGet")], false],
      [[listHint("h1"), call("c2", "TaskCreate"), text("c")], true],
    ];
    for (const [history, changed] of cases) {
      const full = scanContext(history, { source, taskToolNames: settings.injection.taskToolNames, openTasks: true });
      expect(full.tasksChanged).toBe(changed);
      expect(knownOf({ tail: [text(`x${Math.random()}`), ...history], reply, settings }).scan.tasksChanged).toBe(
        changed,
      );
    }
  });
});
