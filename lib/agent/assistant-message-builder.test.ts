import { describe, expect, it } from "vitest";
import type { ChatChunk } from "../chat-message.ts";
import { AssistantMessageBuilder } from "./assistant-message-builder.ts";

function build(chunks: ChatChunk[]) {
  const builder = new AssistantMessageBuilder("r1");
  for (const chunk of chunks) builder.apply(chunk);
  return builder.snapshot();
}

describe("AssistantMessageBuilder", () => {
  it("folds text deltas into one text part per text id, in order", () => {
    const message = build([
      { type: "start-step" },
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "Hello " },
      { type: "text-delta", id: "t", delta: "world" },
      { type: "text-end", id: "t" },
    ]);
    expect(message.parts).toEqual([{ type: "step-start" }, { type: "text", text: "Hello world", state: "done" }]);
  });

  it("tracks a tool call from input to output and keeps data parts where they arrived", () => {
    const message = build([
      {
        type: "data-hint",
        id: "h1",
        data: { source: { label: "S", sublabel: "R" }, fields: {}, text: "x", createdAt: "t" },
      },
      { type: "start-step" },
      { type: "tool-input-start", toolCallId: "c1", toolName: "TaskList" },
      { type: "tool-input-available", toolCallId: "c1", toolName: "TaskList", input: {} },
      { type: "tool-output-available", toolCallId: "c1", output: "No tasks available." },
    ]);
    expect(message.parts.map((p) => p.type)).toEqual(["data-hint", "step-start", "tool-TaskList"]);
    expect(message.parts[2]).toMatchObject({ state: "output-available", input: {}, output: "No tasks available." });
  });

  it("closes streaming text in the snapshot when the reply stops half way", () => {
    const message = build([
      { type: "text-start", id: "t" },
      { type: "text-delta", id: "t", delta: "partial" },
    ]);
    expect(message.parts).toEqual([{ type: "text", text: "partial", state: "done" }]);
  });

  it("replaces a data part sent again with the same id and ignores transient ones", () => {
    const task = (subject: string) => ({
      id: "1",
      subject,
      description: "",
      status: "pending" as const,
      blocks: [],
      blockedBy: [],
      metadata: {},
      createdAt: "t",
      updatedAt: "t",
    });
    const usage = (inputTokens: number) => ({ inputTokens, contextWindow: 10, triggerTokens: 8, bufferStartTokens: 6 });
    const message = build([
      { type: "data-tasks", id: "tasks", data: [task("stored")] },
      // Transient: streamed to the tab, never part of the stored message, so it neither replaces nor adds a part.
      { type: "data-tasks", id: "tasks", data: [task("transient")], transient: true },
      {
        type: "data-plan",
        id: "plan",
        data: { content: "draft", updatedAt: "t", version: 1, author: "agent" },
        transient: true,
      },
      { type: "data-context-usage", id: "u", data: usage(1) },
      { type: "data-context-usage", id: "u", data: usage(2) },
    ]);
    expect(message.parts).toEqual([
      { type: "data-tasks", id: "tasks", data: [task("stored")] },
      { type: "data-context-usage", id: "u", data: usage(2) },
    ]);
  });

  it("folds a call that waits for approval: approval-requested, then approval-responded, then its result or error", () => {
    const call = (id: string): ChatChunk[] => [
      { type: "tool-input-available", toolCallId: id, toolName: "mcp__files__write_file", input: { path: "a" } },
      { type: "tool-approval-request", approvalId: `ap-${id}`, toolCallId: id },
    ];
    const waiting = build([{ type: "start-step" }, ...call("c1")]);
    expect(waiting.parts[1]).toMatchObject({
      type: "tool-mcp__files__write_file",
      state: "approval-requested",
      approval: { id: "ap-c1" },
    });
    const message = build([
      { type: "start-step" },
      ...call("c1"),
      ...call("c2"),
      { type: "tool-approval-response", approvalId: "ap-c1", approved: true },
      { type: "tool-output-available", toolCallId: "c1", output: "written" },
      { type: "tool-approval-response", approvalId: "ap-c2", approved: false, reason: "no" },
      { type: "tool-output-error", toolCallId: "c2", errorText: "ApprovalDeniedError: no" },
    ]);
    expect(message.parts[1]).toMatchObject({
      state: "output-available",
      output: "written",
      approval: { id: "ap-c1", approved: true },
    });
    expect(message.parts[2]).toMatchObject({
      state: "output-error",
      errorText: "ApprovalDeniedError: no",
      approval: { id: "ap-c2", approved: false, reason: "no" },
    });
    // Stopped before the person answered: not run, settled as denied with why (never left waiting).
    const stopped = build([
      { type: "start-step" },
      ...call("c3"),
      { type: "tool-approval-response", approvalId: "ap-c3", approved: false, reason: "Not run: stopped." },
      { type: "tool-output-denied", toolCallId: "c3" },
    ]);
    expect(stopped.parts[1]).toMatchObject({
      state: "output-denied",
      approval: { id: "ap-c3", approved: false, reason: "Not run: stopped." },
    });
  });
});
