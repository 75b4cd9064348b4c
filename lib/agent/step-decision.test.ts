// The step's one decision with the clock frozen at 2026-07-01T12:00:00Z: compression first, then the hints in their
// fixed order (Mode, Workspace, MCP tools, Subagents, the superseded status, the runtime hint), the strategy carried
// from step to step, and the state the step stores.
import { describe, expect, it } from "vitest";
import type { Task } from "../chat-message.ts";
import { NOTHING_TOLD } from "./hints/told.ts";
import { NO_FIGURES } from "./injection-strategy.ts";
import { MODE_HINT_SOURCE } from "./plan-mode.ts";
import { defaultSettings, type Settings } from "./settings.ts";
import { compressionDue, decideStep, type HintChunk, type StepInput, startStrategy } from "./step-decision.ts";
import { SUBAGENTS_HINT_SOURCE } from "./subagents.ts";
import { WORKSPACE_HINT_SOURCE } from "./workspace-changes.ts";

const NOW = new Date("2026-07-01T12:00:00Z");
const RECENT_TIME_HINT =
  "<system-reminder>\n<current-time>2026-07-01T11:55:00</current-time>\n<timezone>UTC</timezone>\n</system-reminder>";

function settingsWith(injection: Partial<Settings["injection"]> = {}): Settings {
  const base = defaultSettings("UTC");
  return { ...base, injection: { ...base.injection, ...injection }, context: { ...base.context, triggerRatio: 0.8 } };
}

const task = (id: string, status: Task["status"], subject = `task ${id}`): Task => ({
  id,
  subject,
  description: "",
  status,
  blocks: [],
  blockedBy: [],
  metadata: {},
  createdAt: NOW.toISOString(),
  updatedAt: NOW.toISOString(),
});

function input(patch: Partial<StepInput> & { stateOf?: Partial<StepInput["state"]> } = {}): StepInput {
  let n = 0;
  const { stateOf, ...rest } = patch;
  return {
    stepIndex: 1,
    replyId: "reply-1",
    now: NOW,
    newId: () => `id-${++n}`,
    settings: settingsWith(),
    contextWindow: 1000,
    inputTokens: 100,
    firstCallInputTokens: 100,
    compressed: false,
    known: { scan: { lastTimeText: RECENT_TIME_HINT, tasksSeen: true }, told: NOTHING_TOLD, noticedEdits: 0 },
    state: { mode: "build", plan: null, tasks: [], taskEdits: 0, ...stateOf },
    strategy: startStrategy({}),
    prices: { cachedRatio: 0.1, writeRatio: 1 },
    neutralize: (text) => text.replaceAll("<", "‹"),
    hintMaxChars: 4096,
    ...rest,
  };
}

const appended = (decision: ReturnType<typeof decideStep>): HintChunk[] => decision.chunks;

describe("decideStep", () => {
  it("compresses a later step that reached the trigger, never the first (measured as the context was prepared)", () => {
    expect(compressionDue(input({ inputTokens: 800 }))).toBe(true);
    expect(compressionDue(input({ inputTokens: 799 }))).toBe(false);
    expect(compressionDue(input({ inputTokens: 950, stepIndex: 0 }))).toBe(false);
    // After a compression that left 850 of 1000: not again until the input grew by 15 % (150), or reached 95 %.
    const left = { inputTokens: 850, contextWindow: 1000 };
    expect(compressionDue({ ...input({ inputTokens: 900 }), left })).toBe(false);
    expect(compressionDue({ ...input({ inputTokens: 949 }), left })).toBe(false);
    expect(compressionDue({ ...input({ inputTokens: 950 }), left })).toBe(true);
    expect(compressionDue({ ...input({ inputTokens: 900 }), left: { inputTokens: 750, contextWindow: 1000 } })).toBe(
      true,
    );
    // Right after a compression the runtime hint tells the new size, whatever it is.
    expect(
      appended(decideStep(input({ inputTokens: 300, compressed: true }))).at(-1)?.data.fields["context-length"],
    ).toContain("300 tokens");
    expect(appended(decideStep(input({ inputTokens: 300 })))).toEqual([]);
  });

  it("appends nothing when the agent's picture is current", () => {
    const decision = decideStep(input());
    expect(appended(decision)).toEqual([]);
    expect(decision.quiet).toEqual([]);
  });

  it("tells the time when the newest time hint is stale, with the clock given", () => {
    const chunks = appended(
      decideStep(input({ known: { scan: { tasksSeen: true }, told: NOTHING_TOLD, noticedEdits: 0 } })),
    );
    expect(chunks).toHaveLength(1);
    expect(chunks[0]!.data.fields).toMatchObject({ "current-time": "2026-07-01T12:00:00", timezone: "UTC" });
    expect(chunks[0]!.data.createdAt).toBe(NOW.toISOString());
  });

  it("orders the hints Mode, Workspace, MCP tools, Subagents, then the runtime hint", () => {
    const chunks = appended(
      decideStep(
        input({
          known: { scan: { tasksSeen: false }, told: NOTHING_TOLD, noticedEdits: 0 },
          stateOf: {
            mode: "plan",
            tasks: [task("1", "pending")],
            workspace: { name: "docs", revision: "3:0", changes: [{ kind: "instructions", text: "be brief" }] },
            mcp: { changes: [{ kind: "tool-added", name: "mcp__echo__ping", description: "pings" }] },
            children: {
              finished: [
                {
                  agentKey: "agent:general-purpose:1",
                  run: "agent:general-purpose:1@r1",
                  status: "done",
                  answer: "found <it>",
                },
              ],
              more: 0,
              running: 0,
              maxRunning: 4,
            },
          },
        }),
      ),
    );
    expect(chunks.map((c) => c.data.source)).toEqual([
      MODE_HINT_SOURCE,
      WORKSPACE_HINT_SOURCE,
      WORKSPACE_HINT_SOURCE,
      SUBAGENTS_HINT_SOURCE,
      settingsWith().injection.injectionSource,
    ]);
    expect(chunks[1]!.data.revision).toBe("3:0");
    // A child's answer is neutralised before it sits inside a reminder.
    expect(chunks[3]!.data.text).toContain("found ‹it>");
    expect(new Set(chunks.map((c) => c.id)).size).toBe(5);
  });

  it("tells a mode once: due when the context told another, and again in plan mode right after a compression", () => {
    const plan = { content: "1. write the tests", version: 2, updatedAt: NOW.toISOString() } as never;
    const told = (mode?: "plan" | "build") => ({
      scan: { lastTimeText: RECENT_TIME_HINT, tasksSeen: true },
      told: { ...NOTHING_TOLD, mode },
      noticedEdits: 0,
    });
    expect(appended(decideStep(input({ known: told("plan"), stateOf: { mode: "plan" } })))).toEqual([]);
    const build = appended(decideStep(input({ known: told("plan"), stateOf: { mode: "build", plan } })));
    expect(build[0]!.data.fields.mode).toBe("build");
    expect(build[0]!.data.text).toContain("1. write the tests");
    expect(appended(decideStep(input({ known: told(undefined), stateOf: { mode: "build" } })))).toEqual([]);
    const again = appended(decideStep(input({ known: told("plan"), compressed: true, stateOf: { mode: "plan" } })));
    expect(again[0]!.data.source).toEqual(MODE_HINT_SOURCE);
  });

  it("tells a subagent a child's Mode reminders: to investigate and report while planning, never PlanWrite, no plan", () => {
    const plan = { content: "1. write the tests", version: 2 };
    const planning = appended(decideStep(input({ child: true, stateOf: { mode: "plan" } })));
    expect(planning[0]!.data.fields).toEqual({ mode: "plan" });
    expect(planning[0]!.data.text).toContain("report what you find");
    expect(planning[0]!.data.text).not.toContain("PlanWrite");
    const known = {
      scan: { lastTimeText: RECENT_TIME_HINT, tasksSeen: true },
      told: { ...NOTHING_TOLD, mode: "plan" as const },
      noticedEdits: 0,
    };
    const building = appended(decideStep(input({ child: true, known, stateOf: { mode: "build", plan } })));
    expect(building[0]!.data.fields).toEqual({ mode: "build" });
    expect(building[0]!.data.text).toContain("read-only restriction is lifted");
    expect(building[0]!.data.text).not.toContain("write the tests");
  });

  it("tells the person's task edit once, and records an edit a step went through without a task hint", () => {
    const tasks = [task("1", "pending")];
    const edited = decideStep(input({ stateOf: { tasks, taskEdits: 2 } }));
    const chunks = appended(edited);
    expect(chunks[0]!.data.fields.tasks).toContain("The user updated the task list.");
    expect(chunks[0]!.data.taskEdits).toBe(2);
    expect(edited.patch.taskEditsNoticed).toBeUndefined();
    // Known from the input: nothing again.
    const told = {
      scan: { lastTimeText: RECENT_TIME_HINT, tasksSeen: true },
      told: { ...NOTHING_TOLD, taskEdits: 2 },
      noticedEdits: 0,
    };
    expect(appended(decideStep(input({ known: told, stateOf: { tasks, taskEdits: 2 } })))).toEqual([]);
    // No task open: no task hint, so the edit is news for this step only.
    const none = decideStep(input({ stateOf: { tasks: [task("1", "completed")], taskEdits: 3 } }));
    expect(appended(none)).toEqual([]);
    expect(none.patch.taskEditsNoticed).toEqual({ count: 3, replyId: "reply-1" });
  });

  it("lists the open tasks by default, and counts them only with tasksDetail counts", () => {
    const tasks = [task("1", "pending", "pack the boxes"), task("2", "completed", "book a van")];
    const known = { scan: { lastTimeText: RECENT_TIME_HINT, tasksSeen: false }, told: NOTHING_TOLD, noticedEdits: 0 };
    expect(
      appended(decideStep(input({ known, settings: settingsWith({ tasksDetail: "counts" }), stateOf: { tasks } })))[0]!
        .data.fields.tasks,
    ).not.toContain("pack the boxes");
    const listed = appended(decideStep(input({ known, stateOf: { tasks } })));
    expect(listed[0]!.data.fields.tasks).toContain("pack the boxes");
    expect(listed[0]!.data.fields.tasks).not.toContain("book a van");
  });

  // Every kind of hint at once: a mode to tell, workspace and MCP news, a finished child, a stale time.
  const everything = (settings: Settings) =>
    decideStep(
      input({
        settings,
        known: { scan: { tasksSeen: true }, told: NOTHING_TOLD, noticedEdits: 0 },
        stateOf: {
          mode: "plan",
          workspace: { name: "docs", revision: "3:0", changes: [{ kind: "instructions", text: "be brief" }] },
          mcp: { changes: [{ kind: "tool-added", name: "mcp__echo__ping", description: "pings" }] },
          children: {
            finished: [
              { agentKey: "agent:general-purpose:1", run: "agent:general-purpose:1@r1", status: "done", answer: "42" },
            ],
            more: 0,
            running: 0,
            maxRunning: 4,
          },
        },
      }),
    );

  it("keeps every hint out of the stream, but stored, when hint events are off", () => {
    const decision = everything(settingsWith({ emitHintEvent: false }));
    expect(decision.chunks).toEqual([]);
    expect(decision.quiet.map((c) => c.data.source)).toEqual([
      MODE_HINT_SOURCE,
      WORKSPACE_HINT_SOURCE,
      WORKSPACE_HINT_SOURCE,
      SUBAGENTS_HINT_SOURCE,
      settingsWith().injection.injectionSource,
    ]);
  });

  it("with injection off appends no hint of any kind and stores no strategy figures", () => {
    expect(everything(settingsWith()).chunks).toHaveLength(5);
    const decision = everything(settingsWith({ injectRuntimeState: false }));
    expect(decision.chunks).toEqual([]);
    expect(decision.quiet).toEqual([]);
    expect(decision.patch).toEqual({});
  });

  it("under replace sends the full status every call and supersedes the previous one before the next", () => {
    const settings = settingsWith({ strategy: "replace" });
    const first = decideStep(input({ settings }));
    expect(first.chunks).toHaveLength(1);
    const status = first.chunks[0]!;
    expect(status.data.replace).toBe(true);
    expect(Object.keys(status.data.fields)).toEqual(
      expect.arrayContaining(["current-time", "timezone", "tasks", "context-length"]),
    );
    expect(first.endsWithReplace).toBe(true);
    const second = decideStep(input({ settings, stepIndex: 2, strategy: first.strategy }));
    expect(second.chunks[0]).toEqual({ ...status, data: { ...status.data, superseded: true } });
    expect(second.chunks[1]!.data.replace).toBe(true);
    expect(second.strategy.figures.calls).toBe(2);
  });

  it("counts each call in the cost model and each hint append sent, and stores the figures", () => {
    const stale = { scan: { tasksSeen: true }, told: NOTHING_TOLD, noticedEdits: 0 };
    const decision = decideStep(input({ known: stale }));
    expect(decision.strategy.figures).toMatchObject({ calls: 1, updates: 1, statuses: 1, hints: 1 });
    expect(decision.patch.strategy).toEqual(decision.strategy.figures);
    expect(decision.patch.strategyDecision?.chosen).toBe("append");
    expect(decision.patch.strategyUpdate?.text).toContain("<current-time>2026-07-01T12:00:00</current-time>");
    // The same state next step: not an update (the full status tells nothing new by the append rules).
    const next = decideStep(input({ stepIndex: 2, strategy: decision.strategy }));
    expect(next.strategy.figures).toMatchObject({ calls: 2, updates: 1 });
  });

  it("switches auto to replace when the state changes on nearly every call and re-reading is dear", () => {
    const settings = settingsWith({ strategy: "auto" });
    const figures = {
      ...NO_FIGURES,
      calls: 40,
      updates: 38,
      statusTokens: 40 * 60,
      statuses: 40,
      hintTokens: 38 * 60,
      hints: 38,
    };
    const decision = decideStep(
      input({
        settings,
        strategy: startStrategy({ figures, previous: "append" }),
        prices: { cachedRatio: 1, writeRatio: 1 },
      }),
    );
    expect(decision.patch.strategyDecision).toMatchObject({ configured: "auto", chosen: "replace" });
    expect(decision.chunks.at(-1)?.data.replace).toBe(true);
  });

  it("tells the reply's last call that it is the last, after everything else, and the chip names the limit", () => {
    const chunks = appended(
      decideStep(input({ stepLimit: 20, known: { scan: { tasksSeen: true }, told: NOTHING_TOLD, noticedEdits: 0 } })),
    );
    expect(chunks.map((c) => c.data.source.sublabel)).toEqual(["Runtime State", "Steps"]);
    expect(chunks.at(-1)!.data.fields).toEqual({ steps: "20" });
    expect(chunks.at(-1)!.data.text).toMatch(
      /^<system-reminder>\nThis is the last model call this reply may make \(20 in all\), and no tool can be called in it\./,
    );
    expect(
      appended(decideStep(input({ stepLimit: 5, settings: settingsWith({ injectRuntimeState: false }) }))),
    ).toEqual([]);
  });

  it("tells the open tasks again after the agent changed them since it last saw the list, once per change", () => {
    const tasks = [task("1", "in_progress", "pack the boxes"), task("2", "pending", "book a van")];
    const seen = (tasksChanged: boolean) => ({
      scan: { lastTimeText: RECENT_TIME_HINT, tasksSeen: true, listSeen: true, tasksChanged },
      told: NOTHING_TOLD,
      noticedEdits: 0,
    });
    const changed = appended(decideStep(input({ known: seen(true), stateOf: { tasks } })));
    expect(changed[0]!.data.fields.tasks).toBe(
      "You have 1 in-progress tasks and 1 pending tasks. Use `TaskList` to view them if you don't know.\nOpen tasks:\n[1] in_progress pack the boxes\n[2] pending book a van",
    );
    expect(appended(decideStep(input({ known: seen(false), stateOf: { tasks } })))).toEqual([]);
    // Counts only: the agent's own changes are not told back to it.
    expect(
      appended(
        decideStep(input({ known: seen(true), settings: settingsWith({ tasksDetail: "counts" }), stateOf: { tasks } })),
      ),
    ).toEqual([]);
    // Nothing open: nothing to list.
    expect(appended(decideStep(input({ known: seen(true), stateOf: { tasks: [task("1", "completed")] } })))).toEqual(
      [],
    );
  });

  it("tells a long pause since the agent's last reply on the first call", () => {
    const chunks = appended(decideStep(input({ stepIndex: 0, stateOf: { sinceLastReply: 5 * 3_600_000 } })));
    expect(chunks[0]!.data.fields["time-since-last-message"]).toBe("5 h since your last reply");
  });
});
