import { describe, expect, it } from "vitest";
import { scanContext } from "../agent/hints/scan-context.ts";
import { resolveSettings } from "../agent/settings.ts";
import type { ChatMessage, Task } from "../chat-message.ts";
import { createHintStep } from "./runtime-hints.ts";

const settings = resolveSettings({});
const source = settings.injection.injectionSource;
const now = new Date("2026-11-30T09:00:00Z");
const task: Task = { id: "1", subject: "Pack", description: "", status: "pending", blocks: [], blockedBy: [], metadata: {}, createdAt: "", updatedAt: "" };

const text = (id: string, role: "user" | "assistant" = "user"): ChatMessage => ({ id, role, parts: [{ type: "text", text: id }], metadata: {} });
const timeHint = (id: string, at: string): ChatMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "data-hint", id: `h-${id}`, data: { source, fields: {}, text: `<system-reminder><current-time>${at}</current-time></system-reminder>`, createdAt: at } }],
  metadata: {},
});
const taskCall = (id: string): ChatMessage => ({
  id,
  role: "assistant",
  parts: [{ type: "tool-TaskList", toolCallId: `c-${id}`, state: "output-available", input: {}, output: [] } as never],
  metadata: {},
});

function hintFor(history: ChatMessage[], tasks: Task[]) {
  const step = createHintStep({
    settings,
    history: () => history,
    contextWindow: 128_000,
    firstCallInputTokens: 10,
    tasksEditedByPerson: () => false,
    tasks: async () => tasks,
    now: () => now,
  });
  return step({ stepIndex: 0, messages: [], reply: { id: "r", role: "assistant", parts: [], metadata: {} } });
}

describe("createHintStep", () => {
  it("decides as a full scan of the history would, turn after turn, for a task list seen long ago", async () => {
    const history: ChatMessage[] = [text("go"), taskCall("a1"), ...Array.from({ length: 400 }, (_, i) => text(`m${i}`, i % 2 ? "assistant" : "user"))];
    history.push(timeHint("t1", "2026-11-30T08:30:00"));
    for (let turn = 0; turn < 3; turn++) {
      history.push(text(`q${turn}`));
      const full = scanContext(history, { source, taskToolNames: settings.injection.taskToolNames, openTasks: true });
      expect(full.tasksSeen).toBe(true);
      // The time is 30 minutes old and the tasks were listed: nothing to say.
      expect(await hintFor([...history], [task])).toBeUndefined();
    }
    // The same conversation without the task tool call: the open task is announced.
    const unseen = history.filter((m) => m.id !== "a1");
    const hint = await hintFor(unseen, [task]);
    expect(hint?.chunks?.[0]).toMatchObject({ type: "data-hint" });
    expect(JSON.stringify(hint)).toContain("pending tasks");
    // A newer time hint than the one kept wins; with no time hint at all, the time is given.
    const stale = [text("a"), timeHint("old", "2026-11-29T01:00:00"), text("b")];
    expect(JSON.stringify(await hintFor(stale, []))).toContain("current-time");
    expect(await hintFor([...stale, timeHint("new", "2026-11-30T08:59:00"), text("c")], [])).toBeUndefined();
    expect(JSON.stringify(await hintFor([text("hello"), text("again")], []))).toContain("current-time");
  });
});
