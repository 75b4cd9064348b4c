import { describe, expect, it } from "vitest";
import { toolOutputOf, toolOutputText } from "./tool-output.ts";

describe("a stored tool result", () => {
  const data = { tool: "TaskList", total: 2, offset: 0, shown: 2, text: "1 [pending] a\n2 [pending] b" };

  it("is read as the text the model read: a string itself, a built-in tool's data its text", () => {
    expect(toolOutputText("TaskList", data)).toBe(data.text);
    expect(toolOutputText("mcp__files__read_file", "the server's content")).toBe("the server's content");
    expect(toolOutputOf("TaskList", data)).toBe(data);
  });

  it("is a built-in tool's data only when it names that tool and holds its text", () => {
    for (const output of [
      { ...data, tool: "TaskGet" },
      { ...data, text: ["x"] },
      { shown: 2, text: "x" },
      [data],
      null,
      undefined,
      42,
    ]) {
      expect(toolOutputOf("TaskList", output)).toBeUndefined();
      expect(toolOutputText("TaskList", output)).toBeUndefined();
    }
  });
});
