// Pure: a one-line summary of a tool call for the transcript ("Created task 3 · Write tests", "Task 2 → In progress").
import { statusLabel } from "../tasks/status-labels";

export type ToolCallView = {
  toolName: string;
  toolCallId?: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
};

const field = (input: unknown, key: string): string | undefined => {
  const value = (input as Record<string, unknown> | undefined)?.[key];
  return value === undefined || value === null ? undefined : String(value);
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
  const action = ACTION[toolName] ?? toolName;
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
      return `There is no tool ${toolName} · nothing was run`;
    case "PlanTooLargeError":
      return `${action} · not saved: the plan is too long`;
    case "WorkspaceReadOnlyError":
      return `${action} · not saved: only the workspace's owner or an admin can change it`;
    default:
      return `${action} · failed`;
  }
}

export function summarizeTool({ toolName, state, input, output, errorText }: ToolCallView): string {
  if (toolName === "MemoryWrite" && state === "output-error" && /DuplicateMemoryError/.test(errorText ?? "")) {
    return `Already remembered: ${field(input, "entry") ?? ""}`.trim();
  }
  if (state === "output-error") return failureInWords(toolName, input, errorText ?? "");
  // A call that waited for the person and was never run (denied, or its reply stopped first).
  if (state === "output-denied") return `${ACTION[toolName] ?? toolName} · not run`;
  const done = state === "output-available";
  const text = typeof output === "string" ? output : "";
  const id = field(input, "task_id");
  switch (toolName) {
    case "TaskCreate": {
      const created = /Task \(id=(\d+)\) created successfully: (.*)/.exec(text);
      return created ? `Created task ${created[1]} · ${created[2]}` : `Creating task · ${field(input, "subject") ?? ""}`;
    }
    case "TaskUpdate": {
      const status = field(input, "status");
      if (status === "deleted") return done ? `Deleted task ${id}` : `Deleting task ${id}`;
      if (text.startsWith("No updates")) return `Task ${id} unchanged`;
      if (status) return `Task ${id} → ${statusLabel(status)}`;
      const changed = /Update task \(id=\d+\) ([^.]*)\./.exec(text)?.[1];
      return changed ? `Task ${id} updated · ${changed}` : `Updating task ${id}`;
    }
    case "TaskGet":
      return `Read task ${id ?? ""}`.trim();
    case "TaskList": {
      const lines = text.split("\n").filter((l) => /^\d+ \[/.test(l)).length;
      return done ? (text.startsWith("No tasks") ? "Listed tasks · none" : `Listed tasks · ${lines}`) : "Listing tasks";
    }
    case "PlanWrite": {
      const version = /Plan saved \(version (\d+)/.exec(text)?.[1];
      return done ? `Wrote the plan${version ? ` · version ${version}` : ""}` : "Writing the plan";
    }
    case "MemoryWrite":
      return `${done ? "Remembered" : "Remembering"}: ${field(input, "entry") ?? ""}`.trim();
    case "MemorySearch": {
      const count = /^(\d+) memory entr/.exec(text)?.[1];
      const found = text.startsWith("No memory entry") ? " · none found" : count ? ` · ${count} found` : "";
      return `${done ? "Searched" : "Searching"} memory for ${quoted(field(input, "query"))}${found}`;
    }
    case "KnowledgeRead": {
      const lines = /, lines (\d+–\d+):/.exec(text)?.[1];
      return `${done ? "Read" : "Reading"} ${field(input, "path") ?? "a knowledge file"}${lines ? ` · lines ${lines}` : ""}`;
    }
    case "KnowledgeSearch": {
      const count = /^(\d+) matching lines?/.exec(text)?.[1];
      const found = text.startsWith("No line") ? " · no match" : count ? ` · ${count} line${count === "1" ? "" : "s"}` : "";
      return `${done ? "Searched" : "Searching"} knowledge for ${quoted(field(input, "query"))}${found}`;
    }
    case "SkillLoad":
      return `${done ? "Loaded" : "Loading"} skill ${field(input, "name") ?? ""}`.trim();
    default:
      return done ? `Called ${toolName}` : `Calling ${toolName}`;
  }
}
