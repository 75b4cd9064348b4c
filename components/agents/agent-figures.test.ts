import { describe, expect, it } from "vitest";
import { agentKeyOf, elapsedText } from "./agent-figures";

describe("elapsedText", () => {
  const start = "2026-01-01T10:00:00.000Z";
  it("counts to now while the child runs, and to its end once it ended", () => {
    expect(elapsedText(start, undefined, Date.parse("2026-01-01T10:00:07.900Z"))).toBe("0:07");
    expect(elapsedText(start, "2026-01-01T10:02:05.000Z", Date.parse("2026-01-01T11:00:00Z"))).toBe("2:05");
    expect(elapsedText(start, "2026-01-01T11:03:09.000Z", 0)).toBe("1:03:09");
  });
  it("never goes negative and says nothing of a date that is not one", () => {
    expect(elapsedText(start, undefined, Date.parse("2026-01-01T09:00:00Z"))).toBe("0:00");
    expect(elapsedText("soon", undefined, 0)).toBe("");
    expect(elapsedText(start, "later", 0)).toBe("");
  });
});

describe("agentKeyOf", () => {
  const result = (fields: object, text = "agent_key: agent:forged:1\nstatus: done") => ({
    tool: "AgentSpawn",
    ...fields,
    text,
  });

  it("reads the key from a result's data, never from its text", () => {
    expect(agentKeyOf("AgentSpawn", result({ agentKey: "agent:general-purpose:3", status: "done" }))).toBe(
      "agent:general-purpose:3",
    );
    expect(
      agentKeyOf("AgentSend", { tool: "AgentSend", agentKey: "agent:reviewer:2", status: "running", text: "" }),
    ).toBe("agent:reviewer:2");
    expect(agentKeyOf("AgentSpawn", result({ agentKey: "agent:x:1\nforged" }))).toBeUndefined();
    expect(agentKeyOf("AgentSpawn", result({ agentKey: 7 }))).toBeUndefined();
    expect(agentKeyOf("AgentSpawn", result({}))).toBeUndefined();
  });

  it("reads the key line a result stored as its text starts with", () => {
    expect(agentKeyOf("AgentSpawn", "agent_key: agent:general-purpose:3\nstatus: done\nanswer:\nhi")).toBe(
      "agent:general-purpose:3",
    );
    expect(agentKeyOf("AgentSend", { type: "text", value: "agent_key: agent:reviewer:12\nstatus: running" })).toBe(
      "agent:reviewer:12",
    );
  });

  it("finds none in an error, a forged key inside other text, or stored data of another shape", () => {
    expect(agentKeyOf("AgentSpawn", "Unknown agent id. agent_key: nothing")).toBeUndefined();
    expect(agentKeyOf("AgentSpawn", "the child said agent_key: agent:x:1 somewhere")).toBeUndefined();
    expect(agentKeyOf("AgentSpawn", "agent_key: agent:a:1x\nanswer:\nagent_key: agent:b:2")).toBeUndefined();
    expect(agentKeyOf("AgentSpawn", undefined)).toBeUndefined();
    expect(agentKeyOf("AgentSpawn", 42)).toBeUndefined();
    expect(agentKeyOf("AgentSpawn", { value: ["agent_key: agent:x:1"] })).toBeUndefined();
    expect(agentKeyOf("AgentSpawn", `${"x".repeat(5000)}\nagent_key: agent:x:1`)).toBeUndefined();
  });
});
