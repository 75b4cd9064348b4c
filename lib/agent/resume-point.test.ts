import { describe, expect, it } from "vitest";
import type { ChatMessagePart } from "../chat-message.ts";
import { resumePoint } from "./resume-point.ts";

const readOnly = (name: string) => name === "TaskList" || name === "mcp_files_read";
const options = { readOnly, interruptedText: (c: { toolName: string }) => `ToolInterruptedError: ${c.toolName}` };
const parts = (...list: object[]) => list as ChatMessagePart[];
const hint = { type: "data-hint", id: "h1", data: { text: "<system-reminder>t</system-reminder>" } };
const step = { type: "step-start" };
const text = (t: string) => ({ type: "text", text: t, state: "done" });
const call = (name: string, state: string, extra: object = {}) => ({
  type: `tool-${name}`,
  toolCallId: `c-${name}-${state}`,
  state,
  input: { subject: "x" },
  ...extra,
});

describe("resumePoint", () => {
  it("keeps what came before the first step as it is", () => {
    const cut = resumePoint(parts(hint), options);
    expect(cut).toEqual({ parts: [hint], afterStep: 0, interrupted: [], waiting: 0 });
  });

  it("redoes a step of text cut mid-stream whole: its partial text is dropped, the finished steps kept", () => {
    const stored = parts(
      hint,
      step,
      call("TaskCreate", "output-available", { output: "ok" }),
      step,
      text("half a sen"),
    );
    const cut = resumePoint(stored, options);
    expect(cut.parts).toEqual(stored.slice(0, 3));
    expect(cut.afterStep).toBe(1);
    expect(cut.interrupted).toEqual([]);
  });

  it("redoes the first step whole when it was cut before any call", () => {
    const cut = resumePoint(parts(hint, step, text("partial")), options);
    expect(cut.parts).toEqual([hint]);
    expect(cut.afterStep).toBe(0);
  });

  it("keeps a step whose calls' results are stored, and never runs them again", () => {
    const stored = parts(step, text("I'll add it."), call("TaskCreate", "output-available", { output: "ok" }));
    const cut = resumePoint(stored, options);
    expect(cut.parts).toEqual(stored);
    expect(cut.afterStep).toBe(1);
  });

  it("answers a write call that may have started with a ToolInterruptedError, and drops a read-only one", () => {
    const stored = parts(
      step,
      text("Working."),
      call("TaskList", "input-available"),
      call("TaskCreate", "input-available"),
      call("TaskUpdate", "input-streaming"),
      text("trailing"),
    );
    const cut = resumePoint(stored, options);
    expect(cut.parts.map((p) => `${p.type}:${(p as { state?: string }).state ?? ""}`)).toEqual([
      "step-start:",
      "text:done",
      "tool-TaskCreate:output-error",
    ]);
    expect((cut.parts[2] as { errorText: string }).errorText).toBe("ToolInterruptedError: TaskCreate");
    expect(cut.interrupted).toEqual(["c-TaskCreate-input-available"]);
    expect(cut.afterStep).toBe(1);
  });

  it("redoes a step whose only started calls only read", () => {
    const stored = parts(step, text("a"), step, call("mcp_files_read", "input-available"));
    const cut = resumePoint(stored, options);
    expect(cut.parts).toEqual(stored.slice(0, 2));
    expect(cut.afterStep).toBe(1);
  });

  it("keeps a call waiting for the person's answer, to wait for it again", () => {
    const stored = parts(step, call("mcp_files_write", "approval-requested", { approval: { id: "a1" } }));
    const cut = resumePoint(stored, options);
    expect(cut.parts).toEqual(stored);
    expect(cut.waiting).toBe(1);
  });

  it("settles an answered approval: denied as denied, approved as a call that may have run", () => {
    const denied = call("mcp_files_write", "approval-responded", { approval: { id: "a1", approved: false } });
    const approved = {
      ...call("mcp_files_write", "approval-responded", { approval: { id: "a2", approved: true } }),
      toolCallId: "c2",
    };
    const cut = resumePoint(parts(step, denied, approved), options);
    expect(cut.parts.map((p) => (p as { state?: string }).state)).toEqual([undefined, "output-error", "output-error"]);
    expect((cut.parts[1] as { errorText: string }).errorText).toBe("The person denied this tool call.");
    expect(cut.interrupted).toEqual(["c2"]);
  });

  it("does not change the stored parts it is given", () => {
    const stored = parts(step, call("TaskCreate", "input-available"));
    const copy = structuredClone(stored);
    resumePoint(stored, options);
    expect(stored).toEqual(copy);
  });
});
