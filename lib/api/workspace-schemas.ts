// Request schemas of the workspace API (workspaces, memory, skills; knowledge files are text bodies).
import { z } from "zod";
import {
  MAX_INSTRUCTIONS_CHARS,
  MAX_MEMORY_ENTRIES,
  MAX_MEMORY_ENTRY_CHARS,
  MAX_SKILL_DESCRIPTION_CHARS,
  MAX_SKILL_INSTRUCTIONS_CHARS,
  MAX_SKILL_NAME_CHARS,
  MAX_WORKSPACE_NAME_CHARS,
} from "../agent/workspace-limits.ts";
import { hasLineBreak } from "../agent/hints/neutralize-tags.ts";
import {
  memoryEntryProblem,
  memoryLinesOf,
  normalizeMemoryEntry,
  SKILL_NAME_PATTERN,
} from "../agent/workspace-text.ts";

const count = (n: number) => n.toLocaleString("en-US");
const overLimit = (what: string, max: number) => (issue: { input: unknown }) =>
  `is ${count(String(issue.input).length)} characters, over the ${what} limit of ${count(max)}`;

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

const workspaceName = z
  .string({ message: "must be a string" })
  .trim()
  .min(1, { message: "must not be empty" })
  .refine((v) => v.length <= MAX_WORKSPACE_NAME_CHARS, { error: overLimit("name", MAX_WORKSPACE_NAME_CHARS) })
  .refine((v) => !CONTROL.test(v), { message: "must not contain control characters or line breaks" });

const instructions = z
  .string({ message: "must be a string (markdown)" })
  .refine((v) => v.length <= MAX_INSTRUCTIONS_CHARS, { error: overLimit("instructions", MAX_INSTRUCTIONS_CHARS) });

/** `shared`: every user of accounts mode may use it (an admin's choice). */
export const createWorkspaceSchema = z
  .object({ name: workspaceName, instructions: instructions.optional(), shared: z.boolean().optional() })
  .strict();

/** The whole memory as text, one entry per line (blank lines ignored): each line a valid entry, none twice. */
const memoryLines = z.string({ message: "must be a string (one entry per line)" }).superRefine((text, ctx) => {
  const lines = memoryLinesOf(text);
  if (lines.length > MAX_MEMORY_ENTRIES) {
    ctx.addIssue({ code: "custom", message: `has ${lines.length} entries, over the limit of ${MAX_MEMORY_ENTRIES}` });
    return;
  }
  const seen = new Map<string, number>();
  for (const [i, line] of lines.entries()) {
    const problem = memoryEntryProblem(line, MAX_MEMORY_ENTRY_CHARS);
    if (problem) return void ctx.addIssue({ code: "custom", message: `entry ${i + 1} ${problem}` });
    const key = normalizeMemoryEntry(line);
    const first = seen.get(key);
    if (first !== undefined)
      return void ctx.addIssue({
        code: "custom",
        message: `entry ${i + 1} repeats entry ${first + 1} ("${line.trim()}")`,
      });
    seen.set(key, i);
  }
});

/** A workspace's own switches (lib/agent/workspace-settings.ts); what is left out stays as it was. */
const workspaceSettings = z
  .object(
    {
      memory: z
        .object(
          { fromCompression: z.boolean({ message: "must be true or false" }).optional() },
          { message: "must be an object" },
        )
        .strict()
        .optional(),
    },
    { message: "must be an object" },
  )
  .strict();

export const updateWorkspaceSchema = z
  .object({
    name: workspaceName.optional(),
    instructions: instructions.optional(),
    memory: memoryLines.optional(),
    settings: workspaceSettings.optional(),
  })
  .strict()
  .refine(
    (v) => v.name !== undefined || v.instructions !== undefined || v.memory !== undefined || v.settings !== undefined,
    {
      message: "send name, instructions, memory and/or settings",
    },
  );

const memoryText = z.string({ message: "must be a string (one line)" }).superRefine((text, ctx) => {
  const problem = memoryEntryProblem(text, MAX_MEMORY_ENTRY_CHARS);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const memoryEntrySchema = z.object({ text: memoryText }).strict();

export const skillNameSchema = z
  .string({ message: "must be a string" })
  .refine((v) => v.length <= MAX_SKILL_NAME_CHARS, { error: overLimit("skill name", MAX_SKILL_NAME_CHARS) })
  .refine((v) => SKILL_NAME_PATTERN.test(v), {
    message: 'must be kebab-case: lower-case letters and digits joined by single hyphens, like "weekly-report"',
  });

const skillDescription = z
  .string({ message: "must be a string (one line)" })
  .trim()
  .min(1, { message: "must not be empty" })
  .refine((v) => !hasLineBreak(v), {
    message: "must be one line (no line breaks, NEL and line or paragraph separators included)",
  })
  .refine((v) => v.length <= MAX_SKILL_DESCRIPTION_CHARS, {
    error: overLimit("description", MAX_SKILL_DESCRIPTION_CHARS),
  });

const skillInstructions = z
  .string({ message: "must be a string (markdown)" })
  .refine((v) => v.trim().length > 0, { message: "must not be empty" })
  .refine((v) => v.length <= MAX_SKILL_INSTRUCTIONS_CHARS, {
    error: overLimit("instructions", MAX_SKILL_INSTRUCTIONS_CHARS),
  });

export const createSkillSchema = z
  .object({ name: skillNameSchema, description: skillDescription, instructions: skillInstructions })
  .strict();

export const updateSkillSchema = z
  .object({ description: skillDescription.optional(), instructions: skillInstructions.optional() })
  .strict()
  .refine((v) => v.description !== undefined || v.instructions !== undefined, {
    message: "send description and/or instructions",
  });
