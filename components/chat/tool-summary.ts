// Pure: a one-line summary of a tool call for the transcript ("Created task 3 · Write tests", "Task 2 → In progress"),
// from the call's input and its result's fields (never the model's text, but for a result stored before results held
// data: text-result-fields.ts).
import { toolInWords } from "@/lib/tool-name";
import { toolOutputOf } from "@/lib/tool-output";
import { statusLabel } from "../tasks/status-labels";
import { fieldsOfText } from "./text-result-fields";

export type ToolCallView = {
  toolName: string;
  toolCallId?: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
};

const entryOf = (from: unknown, key: string): unknown =>
  typeof from === "object" && from !== null ? (from as Record<string, unknown>)[key] : undefined;

/** A field of the input or the result as text (undefined when missing or not a value). */
const field = (from: unknown, key: string): string | undefined => {
  const value = entryOf(from, key);
  return value === undefined || value === null || typeof value === "object" ? undefined : String(value);
};

/** A count of the result (undefined when missing or not a whole number). */
const count = (from: unknown, key: string): number | undefined => {
  const value = entryOf(from, key);
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
};

const quoted = (text: string | undefined, max = 60) => {
  const line = (text ?? "").replace(/\s+/g, " ").trim();
  return `“${line.length > max ? `${line.slice(0, max - 1)}…` : line}”`;
};

/** What a tool does, as a person says it ("update a task"); the name itself for a tool not listed (an MCP tool). */
const ACTION: Record<string, string> = {
  TaskCreate: "Create a task",
  TaskUpdate: "Update a task",
  TaskGet: "Read a task",
  TaskList: "List the tasks",
  PlanWrite: "Write the plan",
  MemoryWrite: "Remember",
  MemorySearch: "Search memory",
  KnowledgeRead: "Read a knowledge file",
  KnowledgeSearch: "Search knowledge",
  SkillLoad: "Load a skill",
};

/**
 * A failed call in words ("Not run · plan mode is read-only"), never the error's type ("PlanModeError"); the exact
 * error text the model got is one click away, in the row's detail.
 */
function failureInWords(toolName: string, input: unknown, errorText: string): string {
  const type = /^(\w+Error):/.exec(errorText)?.[1] ?? (/^Task not found/.test(errorText) ? "TaskNotFoundError" : "");
  const action = ACTION[toolName] ?? toolInWords(toolName);
  switch (type) {
    case "PlanModeError":
      return `${action} · not run: plan mode is read-only`;
    case "TaskNotFoundError":
      return `${action} · there is no task ${field(input, "task_id") ?? ""}`.trimEnd();
    case "InvalidArgumentsError":
      return `${action} · not run: the model's request was incomplete or malformed`;
    case "KnowledgeFileNotFoundError":
      return `${action} · there is no file ${field(input, "path") ?? ""}`.trimEnd();
    case "SkillNotFoundError":
      return `${action} · there is no skill ${field(input, "name") ?? ""}`.trimEnd();
    case "SkillResourceNotFoundError":
      return `${action} · the skill has no file ${field(input, "path") ?? ""}`.trimEnd();
    case "UnknownToolError":
      return `There is no tool ${toolInWords(toolName)} · nothing was run`;
    case "ApprovalDeniedError":
      return `${action} · not run: you denied it`;
    case "PlanTooLargeError":
      return `${action} · not saved: the plan is too long`;
    case "WorkspaceReadOnlyError":
      return `${action} · not saved: only the workspace's owner or an admin can change it`;
    default:
      return `${action} · failed`;
  }
}

/** The fields of a call's result: a built-in tool's data, or those read from a result stored as its text. */
function resultFields(toolName: string, output: unknown): Record<string, unknown> {
  return toolOutputOf(toolName, output) ?? (typeof output === "string" ? fieldsOfText(toolName, output) : {});
}

export function summarizeTool({ toolName, state, input, output, errorText }: ToolCallView): string {
  if (toolName === "MemoryWrite" && state === "output-error" && /DuplicateMemoryError/.test(errorText ?? "")) {
    return `Already remembered: ${field(input, "entry") ?? ""}`.trim();
  }
  if (state === "output-error") return failureInWords(toolName, input, errorText ?? "");
  // A call that waited for the person and was never run (denied, or its reply stopped first).
  if (state === "output-denied") return `${ACTION[toolName] ?? toolInWords(toolName)} · not run`;
  const done = state === "output-available";
  const result = done ? resultFields(toolName, output) : {};
  const id = field(input, "task_id");
  switch (toolName) {
    case "TaskCreate": {
      const created = field(result, "taskId");
      return created
        ? `Created task ${created} · ${field(result, "subject") ?? ""}`
        : `Creating task · ${field(input, "subject") ?? ""}`;
    }
    case "TaskUpdate": {
      const status = field(input, "status");
      if (status === "deleted") return done ? `Deleted task ${id}` : `Deleting task ${id}`;
      if (result.result === "unchanged") return `Task ${id} unchanged`;
      if (status) return `Task ${id} → ${statusLabel(status)}`;
      const changed = Array.isArray(result.changed) ? result.changed.filter((c) => typeof c === "string") : [];
      return changed.length ? `Task ${id} updated · ${changed.join(", ")}` : `Updating task ${id}`;
    }
    case "TaskGet":
      return `Read task ${id ?? ""}`.trim();
    case "TaskList": {
      const shown = count(result, "shown");
      return done ? (shown ? `Listed tasks · ${shown}` : "Listed tasks · none") : "Listing tasks";
    }
    case "PlanWrite": {
      const version = count(result, "version");
      return done ? `Wrote the plan${version ? ` · version ${version}` : ""}` : "Writing the plan";
    }
    case "MemoryWrite":
      return `${done ? "Remembered" : "Remembering"}: ${field(input, "entry") ?? ""}`.trim();
    case "MemorySearch": {
      const matches = count(result, "matches");
      const found = matches === 0 ? " · none found" : matches ? ` · ${matches} found` : "";
      return `${done ? "Searched" : "Searching"} memory for ${quoted(field(input, "query"))}${found}`;
    }
    case "KnowledgeRead": {
      const [first, last] = [count(result.lines, "first"), count(result.lines, "last")];
      const lines = first && last && last >= first ? ` · lines ${first}–${last}` : "";
      return `${done ? "Read" : "Reading"} ${field(input, "path") ?? "a knowledge file"}${lines}`;
    }
    case "KnowledgeSearch": {
      const matches = count(result, "matches");
      const found = matches === 0 ? " · no match" : matches ? ` · ${matches} line${matches === 1 ? "" : "s"}` : "";
      return `${done ? "Searched" : "Searching"} knowledge for ${quoted(field(input, "query"))}${found}`;
    }
    case "SkillLoad":
      return `${done ? "Loaded" : "Loading"} skill ${field(input, "name") ?? ""}`.trim();
    default:
      return done ? `Called ${toolInWords(toolName)}` : `Calling ${toolInWords(toolName)}`;
  }
}
