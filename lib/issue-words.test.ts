import { describe, expect, it } from "vitest";
import { z } from "zod";
import { issueInWords } from "./issue-words.ts";

const words = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  if (result.success) throw new Error("expected a problem");
  return issueInWords(result.error.issues[0]!);
};

describe("issueInWords", () => {
  it.each([
    [z.number(), "0.5", "must be a number (not text)"],
    [z.number().int(), 1.5, "must be a whole number"],
    [z.string(), 5, "must be text (not a number)"],
    [z.boolean(), "yes", "must be true or false (not text)"],
    [z.object({ a: z.string() }), {}, "is missing (it must be text)"],
    [z.number().min(0), -1, "must be at least 0"],
    [z.number().gt(0), 0, "must be more than 0"],
    [z.number().max(0.9), 2, "must be at most 0.9"],
    [z.string().min(1), "", "must not be empty"],
    [z.string().max(3), "abcd", "must be at most 3 characters"],
    [z.array(z.string()).max(1), ["a", "b"], "must have at most 1 item"],
    [z.enum(["a", "b"]), "c", 'must be one of "a", "b"'],
  ])("says %s's problem in words", (schema, value, expected) => {
    expect(words(schema, value)).toBe(expected);
  });

  it("keeps a schema's own message", () => {
    expect(words(z.number().min(0, { message: "must be >= 0 (hours)" }), -1)).toBe("must be >= 0 (hours)");
  });

  it("names unknown fields", () => {
    expect(words(z.object({}).strict(), { x: 1 })).toBe("has unknown field(s) x");
  });
});
