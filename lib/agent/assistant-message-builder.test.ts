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
      { type: "data-hint", id: "h1", data: { source: { label: "S", sublabel: "R" }, fields: {}, text: "x", createdAt: "t" } },
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
    const message = build([
      { type: "data-tasks", id: "tasks", data: [] },
      { type: "data-tasks", id: "tasks", data: [], transient: true },
      { type: "data-context-usage", id: "u", data: { inputTokens: 1, contextWindow: 10, triggerTokens: 8, bufferStartTokens: 6 } },
      { type: "data-context-usage", id: "u", data: { inputTokens: 2, contextWindow: 10, triggerTokens: 8, bufferStartTokens: 6 } },
    ]);
    expect(message.parts).toHaveLength(2);
    expect(message.parts[1]).toMatchObject({ data: { inputTokens: 2 } });
  });
});
