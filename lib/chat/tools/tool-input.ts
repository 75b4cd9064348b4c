// The task tools check their own arguments, so that a bad call gets the same detailed error (with the call counter)
// as any other tool error, instead of the AI SDK's raw InvalidToolInputError dump: the schema the provider sees is
// the real one, but the AI SDK's validation lets everything through to execute, which validates with zod.
import {
  InvalidToolInputError,
  jsonSchema,
  type Schema,
  type ToolCallRepairFunction,
  type ToolSet,
  zodSchema,
} from "ai";
import type { z } from "zod";
import { storable } from "../../nul.ts";
import { ToolError } from "../../agent/tool-result.ts";

const lenientSchemas = new WeakMap<z.ZodType, Schema<unknown>>();

/**
 * The schema sent to the provider, with a validation that accepts any JSON value (execute checks it). One per zod
 * schema: its JSON Schema is made once, not by every reply that makes its tools (the SDK converts a fresh wrapper
 * again on every model call).
 */
export function lenientInputSchema(schema: z.ZodType): Schema<unknown> {
  let lenient = lenientSchemas.get(schema);
  if (!lenient) {
    const strict = zodSchema(schema);
    lenient = jsonSchema<unknown>(() => strict.jsonSchema, { validate: (value) => ({ success: true, value }) });
    lenientSchemas.set(schema, lenient);
  }
  return lenient;
}

/**
 * Arguments that are not JSON at all never reach execute on their own: the AI SDK asks this repair first, which
 * hands the raw text on as a JSON string, so execute reports it (and it counts as a call).
 */
export const repairToolInput: ToolCallRepairFunction<ToolSet> = async ({ toolCall, error }) =>
  InvalidToolInputError.isInstance(error) ? { ...toolCall, input: JSON.stringify(toolCall.input) } : null;

function issueText(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .slice(0, 8)
    .map((issue) => `${issue.path.length ? issue.path.join(".") : "(arguments)"}: ${issue.message}`)
    .join("; ");
}

/** The validated input, or a detailed InvalidArgumentsError naming what is wrong and how a good call looks. */
export function parseToolInput<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  { toolName, call, example }: { toolName: string; call: number; example: string },
): z.output<S> {
  const advice = `Call ${toolName} again with a JSON object like ${example}.`;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    const text = `InvalidArgumentsError: The arguments are not a JSON object${typeof raw === "string" ? " (not valid JSON)" : ""}.`;
    throw new ToolError({ type: "InvalidArgumentsError", text, args: raw, advice, toolName, call });
  }
  // A NUL in a model's arguments is dropped and a lone surrogate replaced: PostgreSQL could not store the task, entry
  // or plan written from them.
  const parsed = schema.safeParse(storable(raw));
  if (parsed.success) return parsed.data;
  const text = `InvalidArgumentsError: The arguments do not match ${toolName}'s parameters: ${issueText(parsed.error.issues)}.`;
  throw new ToolError({ type: "InvalidArgumentsError", text, args: raw, advice, toolName, call });
}
