import type { LanguageModelV4CallOptions, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { decide } from "./demo-model.ts";

const person = (text: string): LanguageModelV4Prompt[number] => ({ role: "user", content: [{ type: "text", text }] });
const offered = (...names: string[]): LanguageModelV4CallOptions["tools"] =>
  names.map((name) => ({ type: "function", name, inputSchema: { type: "object" } }));
const TOOLS = offered("TaskList", "mcp__everything__echo", "mcp__files__read_text_file");

describe("the demo model's MCP requests", () => {
  it("calls the named MCP tool with the JSON arguments, by its own, server or full name", () => {
    expect(decide([person('mcp echo {"message": "hi"}')], TOOLS).calls).toEqual([
      { toolName: "mcp__everything__echo", input: { message: "hi" } },
    ]);
    expect(decide([person('mcp files__read_text_file {"path": "a.txt"}')], TOOLS).calls?.[0]?.toolName).toBe(
      "mcp__files__read_text_file",
    );
    expect(decide([person("mcp mcp__everything__echo")], TOOLS).calls).toEqual([
      { toolName: "mcp__everything__echo", input: {} },
    ]);
  });

  it("sends arguments that are not JSON as they are, and says when there is no such tool", () => {
    expect(decide([person("mcp echo {oops")], TOOLS).calls).toEqual([
      { toolName: "mcp__everything__echo", input: {}, rawInput: "{oops" },
    ]);
    expect(decide([person("mcp nothing {}")], TOOLS).text).toMatch(/no MCP tool called `nothing`.*echo · everything/);
    expect(decide([person("mcp echo {}")], offered("TaskList")).text).toMatch(/has no MCP tools/);
  });

  it("quotes the result once the tool answered", () => {
    const prompt: LanguageModelV4Prompt = [
      person('mcp echo {"message": "hi"}'),
      {
        role: "assistant",
        content: [{ type: "tool-call", toolCallId: "c1", toolName: "mcp__everything__echo", input: { message: "hi" } }],
      },
      {
        role: "tool",
        content: [
          {
            type: "tool-result",
            toolCallId: "c1",
            toolName: "mcp__everything__echo",
            output: {
              type: "text",
              value: "Echo: hi\n(Tool call #1 for 'mcp__everything__echo' in this conversation.)",
            },
          },
        ],
      },
    ];
    expect(decide(prompt, TOOLS)).toEqual({ text: "**echo · everything** answered:\n\n> Echo: hi" });
  });
});
