import { describe, expect, it } from "vitest";
import { callCountLine, callCountOf, withCallCount, withoutCallCount } from "./tool-result.ts";

describe("the call counter line", () => {
  it("is read back by the same module that writes it", () => {
    const result = withCallCount("Task 3 updated.", "TaskUpdate", 12);
    expect(result.endsWith(callCountLine("TaskUpdate", 12))).toBe(true);
    expect(callCountOf(result)).toBe(12);
    expect(withoutCallCount(result)).toBe("Task 3 updated.");
  });

  it("only at the end of a result, so a counter quoted inside one is kept", () => {
    const quoted = `It said ${callCountLine("TaskList", 2)}\nand more`;
    expect(callCountOf(quoted)).toBeUndefined();
    expect(withoutCallCount(quoted)).toBe(quoted);
  });
});
