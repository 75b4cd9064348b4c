import { describe, expect, it } from "vitest";
import {
  callCountLine,
  callCountOf,
  errorDetail,
  toolExecutionError,
  withCallCount,
  withoutCallCount,
} from "./tool-result.ts";

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

describe("a failure's detail for the model", () => {
  it("names the error's class and code and keeps its words on one line, never a stack or a code frame", () => {
    const error = Object.assign(new RangeError("Offset out of range\n    at read (/app/lib/x.ts:3:9)"), {
      code: "ERR_OUT_OF_RANGE",
    });
    expect(errorDetail(error)).toBe("RangeError (ERR_OUT_OF_RANGE): Offset out of range");
    expect(errorDetail(new Error("database is locked"))).toBe("database is locked");
    expect(errorDetail("a thrown string")).toBe("a thrown string");
    expect(errorDetail({ reason: "an object" })).toBe('{"reason":"an object"}');
    expect(errorDetail(new Error(""))).toBe("no message");
  });

  it("scrubs secrets, bounds its length, and says a full disk in words", () => {
    expect(errorDetail(new Error("401 with Authorization: Bearer abc.def.ghi"))).toBe(
      "401 with Authorization: Bearer [redacted]",
    );
    const long = errorDetail(new Error("x".repeat(5_000)));
    expect(long).toHaveLength(400);
    expect(long.endsWith("…")).toBe(true);
    expect(
      errorDetail(Object.assign(new Error("SQLITE_FULL: database or disk is full"), { code: "SQLITE_FULL" })),
    ).toBe("the server's disk is full, so nothing could be saved");
  });

  it("is a detailed tool error: type, detail, arguments, advice and the call counter", () => {
    const error = toolExecutionError({
      error: new Error("boom"),
      toolName: "MemoryWrite",
      args: { entry: "x" },
      call: 4,
      writes: true,
    });
    expect(error.name).toBe("ToolExecutionError");
    expect(String(error)).toMatch(
      /^ToolExecutionError: MemoryWrite failed inside Hintline: boom\nArguments sent: \{"entry":"x"\}\nWhat to do: .*may or may not have taken effect/,
    );
    expect(callCountOf(String(error))).toBe(4);
  });
});
