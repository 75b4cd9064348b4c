import { describe, expect, it } from "vitest";
import { agentKeyOf, GENERAL_PURPOSE_AGENT_ID, parseAgentKey, visibleAgents } from "./subagents.ts";

const def = (id: string, description = id) => ({ id, description, instructions: "Do it." });

describe("visibleAgents", () => {
  it("has the built-in general-purpose agent when nothing is defined", () => {
    expect(visibleAgents([], []).map((a) => [a.id, a.origin])).toEqual([[GENERAL_PURPOSE_AGENT_ID, "built-in"]]);
  });

  it("lets the workspace's own win over default's, and either replace the built-in, sorted by id", () => {
    const agents = visibleAgents([def("reviewer", "own")], [def("reviewer", "shared"), def("general-purpose", "shared gp"), def("analyst")]);
    expect(agents.map((a) => [a.id, a.origin, a.description])).toEqual([
      ["analyst", "default", "analyst"],
      ["general-purpose", "default", "shared gp"],
      ["reviewer", "workspace", "own"],
    ]);
  });
});

describe("agent keys", () => {
  it("round-trips and refuses anything else", () => {
    expect(agentKeyOf("code-reviewer", 3)).toBe("agent:code-reviewer:3");
    expect(parseAgentKey("agent:code-reviewer:3")).toEqual({ agentId: "code-reviewer", n: 3 });
    for (const bad of ["agent:Code:1", "agent:x:0", "agent:x:01", "agent:x", "x:y:1", "agent:x:1 "]) expect(parseAgentKey(bad)).toBeUndefined();
  });
});
