import { describe, expect, it } from "vitest";
import { MCP_TOOL_MAX_CHARS, MCP_TOOLS_PER_SERVER, mcpToolsBudget } from "../../agent/mcp-tool-caps.ts";
import type { McpToolDefinition } from "./connect.ts";
import { describeMcpTools, fixedToolsOf, fixedToolTokens, offeredToolsOf, withinWindowShare } from "./mcp-tool-list.ts";

const tool = (
  name: string,
  inputSchema: unknown = { type: "object", properties: { n: { type: "number" } } },
): McpToolDefinition => ({
  name,
  description: `${name} does one thing.`,
  inputSchema,
});
const many = (count: number, prefix = "t") =>
  Array.from({ length: count }, (_, i) => tool(`${prefix}${String(i).padStart(4, "0")}`));

/** A schema nested `levels` deep, built without recursion (JSON.stringify could not write one of 20,000). */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = { type: "string" };
  for (let i = 3; i < levels; i++) value = { type: "array", items: value };
  return { type: "object", properties: { path: value } };
}

describe("offeredToolsOf", () => {
  it("offers a server's first 128 tools in its own order and leaves the rest out, each with its reason", () => {
    const { tools, leftOut } = offeredToolsOf("many", many(1_000));
    expect(tools).toHaveLength(MCP_TOOLS_PER_SERVER);
    expect(tools.map((t) => t.tool)).toEqual(many(128).map((t) => t.name));
    expect(tools[0]).toMatchObject({ name: "mcp__many__t0000", server: "many", tool: "t0000" });
    expect(leftOut).toHaveLength(872);
    expect(leftOut[0]).toEqual({ server: "many", tool: "t0128", reason: "server-cap" });
    // The same listing gives the same cut; the catalog, which only compares, takes every usable tool.
    expect(offeredToolsOf("many", many(1_000))).toEqual({ tools, leftOut });
    expect(fixedToolsOf("many", many(1_000), Number.POSITIVE_INFINITY)).toHaveLength(1_000);
  });

  it("leaves out a schema nested 20,000 deep or too big, and a name that cannot be offered, without taking a place", () => {
    const huge = {
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: 600 }, (_, i) => [`f${i}`, { type: "string", description: "A field." }]),
      ),
    };
    const listing = [
      tool("deep", nested(20_000)),
      tool("huge", huge),
      tool("x".repeat(80)),
      tool("a b"),
      tool("a_b"),
      ...many(128),
    ];
    const { tools, leftOut } = offeredToolsOf("srv", listing);
    expect(leftOut.slice(0, 4)).toEqual([
      { server: "srv", tool: "deep", reason: "schema-depth" },
      { server: "srv", tool: "huge", reason: "definition-size" },
      { server: "srv", tool: "x".repeat(80), reason: "name" },
      // "a b" is offered as a_b: the second a_b has no name of its own.
      { server: "srv", tool: "a_b", reason: "name" },
    ]);
    expect(tools.map((t) => t.tool)).toEqual(["a b", ...many(127).map((t) => t.name)]);
    expect(leftOut.at(-1)).toEqual({ server: "srv", tool: "t0127", reason: "server-cap" });
  });

  it("takes a schema of 32 levels and a definition up to 16 KiB as sent", () => {
    expect(offeredToolsOf("s", [tool("ok", nested(32))]).tools).toHaveLength(1);
    expect(offeredToolsOf("s", [tool("deep", nested(33))]).leftOut).toEqual([
      { server: "s", tool: "deep", reason: "schema-depth" },
    ]);
    const fields = (n: number) => ({
      type: "object",
      properties: Object.fromEntries(
        Array.from({ length: n }, (_, i) => [`field_${String(i).padStart(4, "0")}`, { type: "string" }]),
      ),
    });
    // The largest schema that fits (a binary search), then one field more does not.
    const fitsWith = (count: number) => offeredToolsOf("s", [tool("big", fields(count))]).tools.length === 1;
    let [n, over] = [1, 2_000];
    while (over - n > 1) {
      const mid = Math.floor((n + over) / 2);
      if (fitsWith(mid)) n = mid;
      else over = mid;
    }
    const [fits] = fixedToolsOf("s", [tool("big", fields(n))]);
    expect(
      JSON.stringify({ name: fits!.name, description: fits!.description, parameters: fits!.inputSchema }).length,
    ).toBeLessThanOrEqual(MCP_TOOL_MAX_CHARS);
    expect(offeredToolsOf("s", [tool("big", fields(n + 1))]).leftOut[0]?.reason).toBe("definition-size");
  });
});

describe("withinWindowShare", () => {
  it("keeps the first tools that fit a quarter of the window, servers in order, and says which window the rest missed", () => {
    const a = offeredToolsOf("a", many(100, "a"));
    const b = offeredToolsOf("b", many(10, "b"));
    const list = { tools: [...a.tools, ...b.tools], leftOut: [...a.leftOut, ...b.leftOut] };
    const cut = withinWindowShare(list, 8_192);
    const tokens = cut.tools.reduce((n, t) => n + fixedToolTokens(t), 0);
    expect(tokens).toBeLessThanOrEqual(mcpToolsBudget(8_192));
    expect(cut.tools.length).toBeGreaterThan(10);
    expect(cut.tools).toEqual(list.tools.slice(0, cut.tools.length));
    expect(cut.leftOut).toHaveLength(110 - cut.tools.length);
    expect(cut.leftOut[0]).toEqual({
      server: "a",
      tool: list.tools[cut.tools.length]!.tool,
      reason: "window-share",
      window: 8_192,
    });
    expect(cut.leftOut.at(-1)).toMatchObject({ server: "b", reason: "window-share" });
    // A window with room for all of them changes nothing.
    expect(withinWindowShare(list, 1_000_000)).toBe(list);
  });
});

describe("describeMcpTools", () => {
  it("lists every tool of a long listing with why it is left out, pricing those over the cap as they would be offered", () => {
    const views = describeMcpTools("many", [tool("deep", nested(20_000)), ...many(130)]);
    expect(views).toHaveLength(131);
    expect(views[0]).toMatchObject({
      name: "deep",
      modelName: null,
      tokens: 0,
      leftOut: { reason: "schema-depth", message: "Its input schema nests deeper than 32 levels." },
    });
    expect(views[1]).toMatchObject({ name: "t0000", modelName: "mcp__many__t0000" });
    expect(views[1]?.leftOut).toBeUndefined();
    expect(views[129]).toMatchObject({
      name: "t0128",
      modelName: "mcp__many__t0128",
      leftOut: { reason: "server-cap" },
    });
    expect(views[129]?.tokens).toBe(views[128]?.tokens);
  });
});
