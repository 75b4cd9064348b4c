import { describe, expect, it } from "vitest";
import { collectLedger } from "../agent/evidence-ledger.ts";
import type { ChatMessage } from "../chat-message.ts";
import { defaultSettings } from "../agent/settings.ts";
import { evidenceText, summaryModelMessages, transcriptLine } from "./compression.ts";

describe("summaryModelMessages", () => {
  it("gives the same message object for the same summary, so its conversion is found again", () => {
    const state = { summary: "## Goal\nMove house.", keptFromId: "m9", summarizedCount: 8 };
    const [first] = summaryModelMessages(state);
    expect(first).toMatchObject({ role: "user" });
    expect(String(first!.content)).toContain("Move house.");
    expect(summaryModelMessages({ ...state })[0]).toBe(first);
    expect(summaryModelMessages({ ...state, summary: "## Goal\nStay." })[0]).not.toBe(first);
    expect(summaryModelMessages(undefined)).toEqual([]);
  });
});

describe("evidenceText", () => {
  const text =
    'notes/api.md (55 bytes, 3 lines), lines 1–2:\n     1\t# API\n     2\tSee https://example.com/limits and "src/rate.ts".';
  const reply = (output: unknown): ChatMessage => ({
    id: "m1",
    role: "assistant",
    parts: [
      {
        type: "tool-KnowledgeRead",
        toolCallId: "c1",
        state: "output-available",
        input: { path: "notes/api.md" },
        output,
      } as never,
    ],
  });

  it("reads a built-in tool's result as the text the model read, as it read a result stored as text", () => {
    const data = {
      tool: "KnowledgeRead",
      path: "notes/api.md",
      bytes: 55,
      lines: { first: 1, last: 2, total: 3 },
      text,
    };
    expect(evidenceText(reply(data))).toBe(evidenceText(reply(text)));
    const ledger = (message: ChatMessage) => collectLedger([{ text: evidenceText(message), position: 1 }]);
    expect(ledger(reply(data))).toEqual(ledger(reply(text)));
    // Any other object (an MCP server's JSON, an import) is read as its JSON, as before.
    expect(evidenceText(reply({ rows: ["src/a.ts"] }))).toContain('{"rows":["src/a.ts"]}');
  });
});

describe("the transcript the summariser reads", () => {
  const person: ChatMessage = {
    id: "u1",
    role: "user",
    parts: [{ type: "text", text: "Book the train for Friday." }],
    metadata: { createdAt: "2026-03-02T09:15:30Z" },
  };
  const reply: ChatMessage = {
    id: "a1",
    role: "assistant",
    parts: [
      {
        type: "tool-TaskCreate",
        toolCallId: "c1",
        state: "output-available",
        input: { subject: "Book the train" },
        output: "Task (id=1) created successfully: Book the train",
        resultAt: "2026-03-02T09:16:02Z",
      } as never,
    ],
    metadata: { createdAt: "2026-03-02T09:15:31Z" },
  };
  const settings = (timestamps: boolean) => {
    const s = defaultSettings();
    return { ...s, injection: { ...s.injection, timestamps, timezone: "Europe/Berlin" } };
  };

  it("keeps the times of the person's messages and the tool results when timestamps are on, in the conversation's zone", () => {
    expect(transcriptLine(person, settings(true))).toBe("User: [2026-03-02 10:15:30] Book the train for Friday.");
    expect(transcriptLine(reply, settings(true))).toContain("[TaskCreate result: [2026-03-02 10:16:02] Task (id=1)");
  });

  it("holds no times when they are off, as the model's input holds none", () => {
    expect(transcriptLine(person, settings(false))).toBe("User: Book the train for Friday.");
    expect(transcriptLine(reply, settings(false))).not.toMatch(/\[\d{4}-\d\d-\d\d /);
  });
});
