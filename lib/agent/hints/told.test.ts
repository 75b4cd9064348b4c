import { describe, expect, it } from "vitest";
import type { ChatMessage, HintData } from "../../chat-message.ts";
import { MODE_HINT_SOURCE } from "../plan-mode.ts";
import { WORKSPACE_HINT_SOURCE } from "../workspace-changes.ts";
import { SUBAGENTS_HINT_SOURCE } from "../subagents.ts";
import { childRunTold, combineTold, laterRevision, NOTHING_TOLD, toldIn } from "./told.ts";

const RUNTIME = { label: "System", sublabel: "Runtime" };
const hint = (data: Partial<HintData>): ChatMessage["parts"][number] =>
  ({
    type: "data-hint",
    id: `h${Math.random()}`,
    data: { source: RUNTIME, fields: {}, text: "<system-reminder>x</system-reminder>", createdAt: "", ...data },
  }) as never;
const reply = (...parts: ChatMessage["parts"]): ChatMessage => ({ id: "r", role: "assistant", parts, metadata: {} });

describe("what the told-once hints told", () => {
  it("reads the newest Mode and Workspace hints and the task edits a runtime hint covered", () => {
    const told = toldIn(
      reply(
        hint({ source: MODE_HINT_SOURCE, fields: { mode: "plan" } }),
        hint({ source: WORKSPACE_HINT_SOURCE, fields: {}, revision: "3:1" }),
        hint({ fields: { tasks: "…" }, taskEdits: 2 }),
        hint({ source: MODE_HINT_SOURCE, fields: { mode: "build", plan: "none" } }),
      ),
      RUNTIME,
    );
    expect(told).toEqual({ mode: "build", workspaceRevision: "3:1", taskEdits: 2 });
  });

  it("ignores imported hints, and other sources' edits; a superseded status's edits count", () => {
    const told = toldIn(
      reply(
        hint({ source: MODE_HINT_SOURCE, fields: { mode: "plan" }, imported: true }),
        hint({ source: WORKSPACE_HINT_SOURCE, revision: "9:9", imported: true }),
        hint({ source: { label: "Other", sublabel: "x" }, fields: { tasks: "…" }, taskEdits: 5 }),
        hint({ fields: { tasks: "…" }, taskEdits: 1, replace: true, superseded: true }),
      ),
      RUNTIME,
    );
    expect(told).toEqual({ taskEdits: 1 });
  });

  it("combines older and newer messages: newer hints win, edits only grow", () => {
    const older = { mode: "plan" as const, workspaceRevision: "1:0", taskEdits: 3 };
    expect(combineTold(older, NOTHING_TOLD)).toEqual(older);
    expect(combineTold(older, { mode: "build", taskEdits: 1 })).toEqual({
      mode: "build",
      workspaceRevision: "1:0",
      taskEdits: 3,
    });
  });

  it("reads the children's runs a Subagents hint handed over, and a hint from before runs were recorded by its keys", () => {
    const told = combineTold(
      toldIn(
        reply(hint({ source: SUBAGENTS_HINT_SOURCE, fields: { agents: "agent:a:1 done" }, runs: ["agent:a:1@r1"] })),
        RUNTIME,
      ),
      toldIn(
        reply(hint({ source: SUBAGENTS_HINT_SOURCE, fields: { agents: "agent:b:2 error, agent:c:3 done, +1" } })),
        RUNTIME,
      ),
    );
    expect(childRunTold(told, "agent:a:1", "agent:a:1@r1")).toBe(true);
    // The same child sent more work runs again: that run is news.
    expect(childRunTold(told, "agent:a:1", "agent:a:1@r2")).toBe(false);
    expect(childRunTold(told, "agent:b:2", "agent:b:2@any")).toBe(true);
    expect(childRunTold(told, "agent:c:3", "agent:c:3@any")).toBe(true);
    expect(childRunTold(told, "agent:d:4", "agent:d:4@r")).toBe(false);
    // An imported hint was never sent.
    const imported = toldIn(
      reply(
        hint({
          source: SUBAGENTS_HINT_SOURCE,
          fields: { agents: "agent:e:5 done" },
          runs: ["agent:e:5@r"],
          imported: true,
        }),
      ),
      RUNTIME,
    );
    expect(childRunTold(imported, "agent:e:5", "agent:e:5@r")).toBe(false);
  });

  it("compares workspace revisions by their counters", () => {
    expect(laterRevision("3:1", "4:1")).toBe("4:1");
    expect(laterRevision("4:2", "4:1")).toBe("4:2");
    expect(laterRevision(undefined, "2:0")).toBe("2:0");
    expect(laterRevision("2:0", undefined)).toBe("2:0");
    expect(laterRevision(undefined, undefined)).toBeUndefined();
  });

  it("compares the owner's own level as a third counter, missing as 0", () => {
    expect(laterRevision("4:1", "4:1:2")).toBe("4:1:2");
    expect(laterRevision("4:1:2", "4:1")).toBe("4:1:2");
    expect(laterRevision("4:1:2", "4:1:3")).toBe("4:1:3");
    expect(laterRevision("5:1:2", "4:1:3")).toBe("5:1:2");
    expect(laterRevision("x", "4:1:3")).toBe("x");
  });

  it("reads the counters of a revision with the operator's skills folder's hash, and orders by them alone", () => {
    expect(laterRevision("4:1+0a1b2c3d4e5f", "5:1+0a1b2c3d4e5f")).toBe("5:1+0a1b2c3d4e5f");
    expect(laterRevision("5:1:2+0a1b2c3d4e5f", "4:1")).toBe("5:1:2+0a1b2c3d4e5f");
    expect(laterRevision("4:1", "4:1+99ffee001122")).toBe("4:1+99ffee001122");
    expect(laterRevision("4:1+0a1b2c3d4e5f", "4:1+99ffee001122")).toBe("4:1+99ffee001122");
  });
});
