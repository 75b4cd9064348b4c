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
  it("reads the key line a result starts with", () => {
    expect(agentKeyOf("agent_key: agent:general-purpose:3\nstatus: done\nanswer:\nhi")).toBe("agent:general-purpose:3");
    expect(agentKeyOf({ type: "text", value: "agent_key: agent:reviewer:12\nstatus: running" })).toBe("agent:reviewer:12");
  });
  it("finds none in an error, a forged key inside other text, or stored data of another shape", () => {
    expect(agentKeyOf("Unknown agent id. agent_key: nothing")).toBeUndefined();
    expect(agentKeyOf("the child said agent_key: agent:x:1 somewhere")).toBeUndefined();
    expect(agentKeyOf("agent_key: agent:a:1x\nanswer:\nagent_key: agent:b:2")).toBeUndefined();
    expect(agentKeyOf(undefined)).toBeUndefined();
    expect(agentKeyOf(42)).toBeUndefined();
    expect(agentKeyOf({ value: ["agent_key: agent:x:1"] })).toBeUndefined();
    expect(agentKeyOf(`${"x".repeat(5000)}\nagent_key: agent:x:1`)).toBeUndefined();
  });
});
