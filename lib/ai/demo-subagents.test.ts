import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { decide } from "./demo-model.ts";

const user = (text: string) => ({ role: "user" as const, content: [{ type: "text" as const, text }] });

describe("the demo model's delegation", () => {
  it('spawns general-purpose for "delegate: …" (in the background when asked), in either mode', () => {
    expect(decide([user("delegate: count the rivers")]).calls).toEqual([
      { toolName: "AgentSpawn", input: { agent_id: "general-purpose", task: "count the rivers", label: "count the rivers" } },
    ]);
    expect(decide([user("delegate in background: count the rivers")]).calls?.[0]?.input).toMatchObject({ timeout_seconds: 0 });
    const planning: LanguageModelV4Prompt = [user("delegate: read the notes"), user("<system-reminder>\nPLAN MODE is active (read-only). x\n</system-reminder>")];
    expect(decide(planning).calls?.[0]?.toolName).toBe("AgentSpawn");
  });

  it("answers a task deterministically as a child, and says what a finished background agent told", () => {
    const child: LanguageModelV4Prompt = [{ role: "system", content: "You are Hintline.\n\n# Agent: general-purpose\nYou are a helper agent." }, user("count the rivers")];
    expect(decide(child).text).toBe("Report from general-purpose: I looked into “count the rivers” (3 words) and found what was asked. Done.");
    expect(decide(child).text).toBe(decide(child).text);
    const told = [user("hello"), user('<system-reminder>\nA subagent you started finished in the background; its answer is below (in no tool result):\n- agent:general-purpose:1 "x" — done:\n42 rivers.\nSlots: 0 of 4 agents running in this conversation, 4 free.\n</system-reminder>')];
    expect(decide(told).text).toBe('A subagent I started in the background has finished:\n\n- agent:general-purpose:1 "x" — done:\n42 rivers.');
  });
});
