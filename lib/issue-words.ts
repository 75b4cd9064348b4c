// A validation problem in words a person reads ("must be a number"), never zod's own wording ("Invalid input: expected
// number, received string"). A message a schema wrote itself ("must be >= 0 (hours)") is kept as written. Pure.
import type { z } from "zod";

const KIND: Record<string, string> = {
  number: "a number",
  int: "a whole number",
  string: "text",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  record: "an object",
};

const RECEIVED: Record<string, string> = {
  string: "text",
  number: "a number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  null: "null",
  undefined: "nothing",
  NaN: "a number",
};

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return "text";
  if (typeof value === "number") return Number.isInteger(value) ? "a number" : "a fraction";
  if (typeof value === "boolean") return "true or false";
  if (typeof value === "undefined") return "nothing";
  return "an object";
}

// zod's own messages start so; a schema's own message never does.
const ZOD_WORDING =
  /^(Invalid input|Invalid option|Too (small|big)|Invalid (string|number|format)|Expected |Number must|String must)/i;

/** The issue's problem, to follow its field's name: "must be a number (not text)". */
export function issueInWords(issue: z.core.$ZodIssue): string {
  if (issue.code === "unrecognized_keys") return `has unknown field(s) ${issue.keys.join(", ")}`;
  if (!ZOD_WORDING.test(issue.message)) return issue.message;
  if (issue.code === "invalid_type") {
    const expected = KIND[issue.expected] ?? issue.expected;
    // zod reports what it got in its message ("…, received string"), the value itself only when asked to.
    const received =
      issue.input !== undefined
        ? kindOf(issue.input)
        : RECEIVED[/received (\w+)/.exec(issue.message)?.[1] ?? "undefined"];
    if (received === undefined || received === "nothing") return `is missing (it must be ${expected})`;
    if (issue.expected === "int") return "must be a whole number";
    return `must be ${expected} (not ${received})`;
  }
  if (issue.code === "too_small" || issue.code === "too_big") {
    const bound = Number(issue.code === "too_small" ? issue.minimum : issue.maximum);
    const inclusive = issue.inclusive !== false;
    if (issue.origin === "string") {
      if (issue.code === "too_small" && bound <= 1) return "must not be empty";
      return `must be ${issue.code === "too_small" ? "at least" : "at most"} ${bound.toLocaleString("en-US")} characters`;
    }
    if (issue.origin === "array" || issue.origin === "set") {
      return `must have ${issue.code === "too_small" ? "at least" : "at most"} ${bound.toLocaleString("en-US")} item${bound === 1 ? "" : "s"}`;
    }
    if (issue.code === "too_small") return inclusive ? `must be at least ${bound}` : `must be more than ${bound}`;
    return inclusive ? `must be at most ${bound}` : `must be less than ${bound}`;
  }
  if (issue.code === "invalid_value") return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
  if (issue.code === "invalid_format") return `is not a valid ${issue.format}`;
  if (issue.code === "not_multiple_of") return `must be a multiple of ${String(issue.divisor)}`;
  return "is not valid";
}
