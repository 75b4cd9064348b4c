import { describe, expect, it } from "vitest";
import {
  isLeftOutTool,
  leftOutMessage,
  MCP_SCHEMA_MAX_DEPTH,
  mcpToolsBudget,
  measureJson,
  withinBudget,
} from "./mcp-tool-caps.ts";

/** An object nested `levels` deep (JSON.stringify cannot write one of 20,000; building it needs no recursion). */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { type: "string" };
  for (let i = 1; i < levels; i++) value = { type: "array", items: value };
  return value;
}

describe("measureJson", () => {
  const limits = { maxDepth: MCP_SCHEMA_MAX_DEPTH, maxChars: 16_384 };

  it("counts the value itself as level 1, arrays and objects alike", () => {
    expect(measureJson(nested(32), limits).tooDeep).toBe(false);
    expect(measureJson(nested(33), limits).tooDeep).toBe(true);
    expect(measureJson([[[1]]], { maxDepth: 3, maxChars: 100 }).tooDeep).toBe(false);
    expect(measureJson([[[[1]]]], { maxDepth: 3, maxChars: 100 }).tooDeep).toBe(true);
    expect(measureJson("plain", { maxDepth: 0, maxChars: 100 }).tooDeep).toBe(false);
  });

  it("walks a schema nested 20,000 deep without recursing, and stops at the first level too deep", () => {
    expect(measureJson(nested(20_000), limits)).toEqual({ tooDeep: true, chars: expect.any(Number) });
    expect(measureJson(nested(20_000), limits).chars).toBeLessThan(2_000);
  });

  it("gives a lower bound of the JSON text's length, exact for plain text, and stops once past the limit", () => {
    const value = { type: "object", properties: { a: { type: "string", enum: ["x", "y"] }, n: [1, true, null] } };
    const { chars } = measureJson(value, { maxDepth: 10, maxChars: 10_000 });
    expect(chars).toBe(JSON.stringify(value).length);
    expect(measureJson({ s: 'é\n"' }, { maxDepth: 10, maxChars: 100 }).chars).toBeLessThanOrEqual(
      JSON.stringify({ s: 'é\n"' }).length,
    );
    const wide = Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, "v"]));
    const big = measureJson(wide, { maxDepth: 10, maxChars: 1_000 });
    expect(big.tooDeep).toBe(false);
    expect(big.chars).toBeGreaterThan(1_000);
  });
});

describe("withinBudget", () => {
  const tokens = (t: { tokens: number }) => t.tokens;

  it("takes the tools that fit in order, passes over one that does not, and keeps trying the smaller ones after it", () => {
    const tools = [
      { name: "a", tokens: 40 },
      { name: "big", tokens: 100 },
      { name: "b", tokens: 50 },
      { name: "c", tokens: 20 },
    ];
    const { kept, left } = withinBudget(tools, tokens, 100);
    expect(kept.map((t) => t.name)).toEqual(["a", "b"]);
    expect(left.map((t) => t.name)).toEqual(["big", "c"]);
    expect(withinBudget(tools, tokens, 0).kept).toEqual([]);
    expect(withinBudget(tools, tokens, 1_000).left).toEqual([]);
  });

  it("gives the same cut for the same list, and a quarter of the window as the budget", () => {
    const tools = Array.from({ length: 300 }, (_, i) => ({ name: `t${i}`, tokens: 30 + (i % 7) }));
    expect(withinBudget(tools, tokens, mcpToolsBudget(8_192))).toEqual(withinBudget(tools, tokens, 2_048));
    expect(mcpToolsBudget(8_192)).toBe(2_048);
    expect(mcpToolsBudget(4_096)).toBe(1_024);
  });
});

describe("left-out tools", () => {
  it("reads stored entries defensively", () => {
    expect(isLeftOutTool({ server: "s", tool: "t", reason: "server-cap" })).toBe(true);
    expect(isLeftOutTool({ server: "s", tool: "t", reason: "because" })).toBe(false);
    expect(isLeftOutTool({ server: "s", reason: "name" })).toBe(false);
    expect(isLeftOutTool(null)).toBe(false);
  });

  it("says why in one sentence, with the window's figures for the window share", () => {
    expect(leftOutMessage({ reason: "schema-depth" })).toBe("Its input schema nests deeper than 32 levels.");
    expect(leftOutMessage({ reason: "definition-size" })).toBe(
      "Its definition is larger than the 16 KiB one tool may take.",
    );
    expect(leftOutMessage({ reason: "server-cap" })).toContain("the first 128 in its order are offered");
    expect(leftOutMessage({ reason: "window-share", window: 8_192 })).toBe(
      "The MCP tools may take at most 25 % of the model's context window (2,048 of 8,192 tokens).",
    );
  });
});
