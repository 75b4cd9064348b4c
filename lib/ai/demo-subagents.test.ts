import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { renderSubagentsHint } from "../agent/subagents.ts";
import { describe, expect, it } from "vitest";
import { decide } from "./demo-model.ts";

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
});
