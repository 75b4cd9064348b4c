import { describe, expect, it } from "vitest";
import { collectLedger } from "../agent/evidence-ledger.ts";
import type { ChatMessage } from "../chat-message.ts";
import { evidenceText, summaryModelMessages } from "./compression.ts";

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
