import { describe, expect, it } from "vitest";
import { canonicalDefinition, driftOf, lineDiff, parseDefinition } from "./mcp-drift.ts";

describe("MCP tool drift", () => {
  it("gives the same text for the same definition whatever its keys' order, and another for any change", () => {
    const one = canonicalDefinition({
      description: "Echo",
      inputSchema: { type: "object", properties: { a: { type: "string" }, b: { type: "number" } } },
      annotations: { readOnlyHint: true },
    });
    const two = canonicalDefinition({
      annotations: { readOnlyHint: true },
      inputSchema: { properties: { b: { type: "number" }, a: { type: "string" } }, type: "object" },
      description: "Echo",
    });
    expect(two).toBe(one);
    expect(
      canonicalDefinition({
        description: "Echo.",
        inputSchema: { type: "object", properties: { a: { type: "string" }, b: { type: "number" } } },
        annotations: { readOnlyHint: true },
      }),
    ).not.toBe(one);
    expect(
      canonicalDefinition({
        description: "Echo",
        inputSchema: { type: "object", properties: { a: { type: "string" }, b: { type: "number" } } },
        annotations: { readOnlyHint: false },
      }),
    ).not.toBe(one);
    expect(parseDefinition(one)).toEqual({
      description: "Echo",
      inputSchema: { properties: { a: { type: "string" }, b: { type: "number" } }, type: "object" },
      annotations: { readOnlyHint: true },
    });
  });

  it("reads a damaged stored text as an empty definition, and survives a deeply nested schema", () => {
    expect(parseDefinition("{not json")).toEqual({ description: "", inputSchema: {}, annotations: {} });
    let deep: Record<string, unknown> = {};
    for (let i = 0; i < 5000; i++) deep = { nested: deep };
    expect(canonicalDefinition({ inputSchema: deep }).length).toBeLessThan(5000);
  });

  it("tells a new, an unchanged and a changed definition apart", () => {
    expect(driftOf(undefined, "h1", undefined)).toEqual({ state: "new" });
    expect(driftOf("h1", "h1", "text")).toEqual({ state: "same" });
    expect(driftOf("h1", "h2", "text")).toEqual({ state: "changed", approved: "text" });
  });

  it("diffs by line: what was removed and what was added, in order", () => {
    expect(lineDiff("a\nb\nc", "a\nB\nc\nd")).toEqual([
      { kind: "same", text: "a" },
      { kind: "removed", text: "b" },
      { kind: "added", text: "B" },
      { kind: "same", text: "c" },
      { kind: "added", text: "d" },
    ]);
    expect(lineDiff("same", "same")).toEqual([{ kind: "same", text: "same" }]);
  });
});
