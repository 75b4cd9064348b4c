import { describe, expect, it } from "vitest";
import { parseMcpToolName, toolInWords } from "./tool-name.ts";

describe("toolInWords", () => {
  it("reads an MCP tool as tool · server and leaves every other name as it is", () => {
    expect(toolInWords("mcp__everything__echo")).toBe("echo · everything");
    expect(toolInWords("mcp__issue-tracker__get_issue")).toBe("get_issue · issue-tracker");
    expect(toolInWords("TaskCreate")).toBe("TaskCreate");
    // Not a server name (upper case, empty parts): left alone rather than split wrongly.
    expect(toolInWords("mcp__Bad__x")).toBe("mcp__Bad__x");
    expect(toolInWords("mcp____x")).toBe("mcp____x");
    expect(parseMcpToolName("mcp__a__b__c")).toEqual({ server: "a", tool: "b__c" });
  });
});
