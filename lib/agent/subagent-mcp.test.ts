import { describe, expect, it } from "vitest";
import { childMcpTools, isMcpToolEntry, MCP_READ_ONLY_ENTRY } from "./subagent-mcp.ts";

const list = [
  { name: "mcp__files__read_file", server: "files", annotations: { readOnlyHint: true } },
  { name: "mcp__files__write_file", server: "files", annotations: {} },
  { name: "mcp__web__fetch", server: "web", annotations: { readOnlyHint: false } },
  { name: "mcp__web__search", server: "web", annotations: { readOnlyHint: true } },
];
const names = (entries: string[]) => childMcpTools(list, entries).map((t) => t.name);

describe("a subagent's MCP tools", () => {
  it("the default gives only the tools annotated read-only, in the root list's order", () => {
    expect(names([MCP_READ_ONLY_ENTRY])).toEqual(["mcp__files__read_file", "mcp__web__search"]);
  });
  it("a tool, a server's tools, every tool; none without an MCP entry", () => {
    expect(names(["mcp__web__fetch"])).toEqual(["mcp__web__fetch"]);
    expect(names(["mcp__files__*", "TaskList"])).toEqual(["mcp__files__read_file", "mcp__files__write_file"]);
    expect(names(["mcp__*"])).toEqual(list.map((t) => t.name));
    expect(names(["TaskList", "MemorySearch"])).toEqual([]);
    expect(names([])).toEqual([]);
  });
  it("a pattern never matches more than it says", () => {
    expect(names(["mcp__file__*", "mcp__files__read", "mcp__web__fetch*"])).toEqual([]);
  });
  it("entries are checked by form", () => {
    for (const ok of ["mcp__*", "mcp:read-only", "mcp__files__*", "mcp__my-server__do_it", "mcp__a1__X-y"])
      expect(isMcpToolEntry(ok), ok).toBe(true);
    for (const bad of [
      "mcp__",
      "mcp__Files__x",
      "mcp__files__",
      "mcp__files__a b",
      "mcp__-x__y",
      "mcp__files__*x",
      "mcp:all",
      `mcp__s__${"x".repeat(70)}`,
      "<system-reminder>",
    ]) {
      expect(isMcpToolEntry(bad), bad).toBe(false);
    }
  });
});
