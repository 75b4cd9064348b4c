import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { renderSubagentsHint } from "../agent/subagents.ts";
import { describe, expect, it } from "vitest";
import { decide } from "./demo-model.ts";
import { labelOf } from "./demo-subagents.ts";

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] });

describe("the demo model's delegation", () => {
  it('spawns general-purpose for "delegate: …" (in the background when asked), in either mode', () => {
    expect(decide([user("delegate: count the rivers")]).calls).toEqual([
      {
        toolName: "AgentSpawn",
        input: { agent_id: "general-purpose", task: "count the rivers", label: "count the rivers" },
      },
    ]);
    expect(decide([user("delegate in background: count the rivers")]).calls?.[0]?.input).toMatchObject({
      timeout_seconds: 0,
    });
    const planning: LanguageModelV4Prompt = [
      user("delegate: read the notes"),
      user("<system-reminder>\nPLAN MODE is active (read-only). x\n</system-reminder>"),
    ];
    expect(decide(planning).calls?.[0]?.toolName).toBe("AgentSpawn");
  });

  it("does the task itself when it is offered no AgentSpawn (a subagent at the maximum depth)", () => {
    const grandchild: LanguageModelV4Prompt = [
      { role: "system", content: "You are Hintline.\n\n# Agent: general-purpose\nYou are a helper agent." },
      user("delegate: go deeper"),
    ];
    const offered = [{ type: "function" as const, name: "TaskList", inputSchema: {} }];
    expect(decide(grandchild, offered).calls).toBeUndefined();
    expect(decide(grandchild, offered).text).toMatch(
      /^Report from general-purpose: I looked into “delegate: go deeper”/,
    );
  });

  it("answers a task deterministically as a child, and says what a finished background agent told", () => {
    const child: LanguageModelV4Prompt = [
      { role: "system", content: "You are Hintline.\n\n# Agent: general-purpose\nYou are a helper agent." },
      user("count the rivers"),
    ];
    expect(decide(child).text).toBe(
      "Report from general-purpose: I looked into “count the rivers” (3 words) and found what was asked. Done.",
    );
    expect(decide(child).text).toBe(decide(child).text);
    const { text } = renderSubagentsHint(
      [
        {
          agentKey: "agent:general-purpose:1",
          run: "agent:general-purpose:1@r",
          label: "x",
          status: "done",
          answer: "42 rivers.",
        },
      ],
      {
        more: 0,
        running: 0,
        maxRunning: 4,
        maxChars: 4096,
        neutralize: (t) => t,
      },
    );
    const told = [user("hello"), user(text)];
    expect(decide(told).text).toBe(
      'A subagent I started in the background has finished:\n\n- agent:general-purpose:1 "x" — done:\n42 rivers.',
    );
  });

  it("labels the child with the whole task (up to AgentSpawn's 80 characters), not its first four words", () => {
    const task = "summarise the three release notes and the API change";
    expect(decide([user(`delegate in background: ${task}`)]).calls?.[0]?.input.label).toBe(task);
    const long = `${"word ".repeat(30)}end`;
    expect(labelOf(long)).toMatch(/^word( word)+…$/);
    expect(labelOf(long).length).toBeLessThanOrEqual(80);
    expect(labelOf(` a\n  b `)).toBe("a b");
  });
});

describe("the demo child reads the workspace's knowledge before it reports", () => {
  const system = { role: "system" as const, content: "You are Hintline.\n\n# Agent: general-purpose\nYou help." };
  const offered = ["KnowledgeList", "KnowledgeRead", "MemorySearch"].map((name) => ({
    type: "function" as const,
    name,
    inputSchema: {},
  }));
  const call = (toolCallId: string, toolName: string, input: object) => ({
    role: "assistant" as const,
    content: [{ type: "tool-call" as const, toolCallId, toolName, input }],
  });
  const result = (toolCallId: string, toolName: string, value: string) => ({
    role: "tool" as const,
    content: [{ type: "tool-result" as const, toolCallId, toolName, output: { type: "text" as const, value } }],
  });
  const listing =
    "3 knowledge files (read one with KnowledgeRead):\n- guide.md (10 bytes, 3 tokens)\n- notes.md (40 bytes, 9 tokens)\n- notes/trip.md (30 bytes, 7 tokens)";

  it("lists the files, reads those that fit its task, and reports their first lines", () => {
    const asked: LanguageModelV4Prompt = [system, user("summarise the notes")];
    expect(decide(asked, offered).calls).toEqual([{ toolName: "KnowledgeList", input: {} }]);
    const listed = [...asked, call("c1", "KnowledgeList", {}), result("c1", "KnowledgeList", listing)];
    expect(decide(listed, offered).calls).toEqual([
      { toolName: "KnowledgeRead", input: { path: "notes.md" } },
      { toolName: "KnowledgeRead", input: { path: "notes/trip.md" } },
      { toolName: "KnowledgeRead", input: { path: "guide.md" } },
    ]);
    const read = (id: string, path: string, line: string) => [
      call(id, "KnowledgeRead", { path }),
      result(id, "KnowledgeRead", `${path} (40 bytes, 2 lines), lines 1-2 of 2:\n     1\t# ${line}\n     2\tmore`),
    ];
    const done = [
      ...listed,
      ...read("c2", "notes.md", "Packing"),
      ...read("c3", "notes/trip.md", "Book the van"),
      ...read("c4", "guide.md", "How to"),
    ];
    expect(decide(done, offered)).toEqual({
      text: "Report from general-purpose: I looked into “summarise the notes” (3 words) and read 3 of the workspace's 3 knowledge files:\n\n- `notes.md`: Packing\n- `notes/trip.md`: Book the van\n- `guide.md`: How to\n\nDone.",
    });
    expect(decide(done, offered)).toEqual(decide(done, offered));
  });

  it("says so when the workspace holds no knowledge files", () => {
    const empty = [
      system,
      user("summarise the notes"),
      call("c1", "KnowledgeList", {}),
      result("c1", "KnowledgeList", "No knowledge files."),
    ];
    expect(decide(empty, offered).text).toBe(
      "Report from general-purpose: I looked into “summarise the notes” (3 words). The workspace holds no knowledge files, so I had nothing to read. Done.",
    );
  });
});
