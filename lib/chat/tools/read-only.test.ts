import { describe, expect, it } from "vitest";
import { resumePoint } from "../../agent/resume-point.ts";
import type { FixedMcpTool } from "../../ai/mcp/mcp-tool-list.ts";
import type { ChatMessagePart } from "../../chat-message.ts";
import { readOnlyTools } from "./read-only.ts";

const mcpTool = (name: string, readOnlyHint?: boolean): FixedMcpTool => ({
  name: `mcp__files__${name}`,
  server: "files",
  tool: name,
  description: name,
  inputSchema: { type: "object" },
  annotations: readOnlyHint === undefined ? {} : { readOnlyHint },
});

const readOnly = readOnlyTools([mcpTool("read_file", true), mcpTool("write_file", false), mcpTool("list")]);

describe("readOnlyTools", () => {
  it("re-runs the built-in tools that read and the MCP tools annotated read-only, nothing else", () => {
    for (const name of ["TaskList", "TaskGet", "KnowledgeRead", "SkillLoad", "AgentList", "mcp__files__read_file"])
      expect(readOnly(name), name).toBe(true);
    for (const name of ["TaskCreate", "MemoryWrite", "PlanWrite", "mcp__files__write_file", "mcp__files__list"])
      expect(readOnly(name), name).toBe(false);
  });

  it("never re-runs AgentSpawn or AgentSend: each starts a child's turn, and the child is adopted on its own", () => {
    expect(readOnly("AgentSpawn")).toBe(false);
    expect(readOnly("AgentSend")).toBe(false);
  });

  it("gives a parent's AgentSpawn and AgentSend in flight a ToolInterruptedError; an AgentList in flight runs again", () => {
    const call = (name: string) => ({
      type: `tool-${name}`,
      toolCallId: `c-${name}`,
      state: "input-available",
      input: {},
    });
    const stored = [
      { type: "step-start" },
      call("AgentSpawn"),
      call("AgentSend"),
      call("AgentList"),
    ] as unknown as ChatMessagePart[];
    const cut = resumePoint(stored, {
      readOnly,
      interruptedText: ({ toolName }) => `ToolInterruptedError: ${toolName} was running when the server stopped`,
    });
    expect(cut.interrupted).toEqual(["c-AgentSpawn", "c-AgentSend"]);
    expect(cut.afterStep).toBe(1);
    expect(cut.parts.map((p) => [p.type, (p as { state?: string }).state])).toEqual([
      ["step-start", undefined],
      ["tool-AgentSpawn", "output-error"],
      ["tool-AgentSend", "output-error"],
    ]);
  });
});
