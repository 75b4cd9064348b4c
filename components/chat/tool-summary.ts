// Pure: a one-line summary of a tool call for the transcript ("Created task 3 · Write tests", "Task 2 → completed").
export type ToolCallView = {
  toolName: string;
  state: string;
  input?: unknown;
  output?: unknown;
  errorText?: string;
};

const field = (input: unknown, key: string): string | undefined => {
  const value = (input as Record<string, unknown> | undefined)?.[key];
  return value === undefined || value === null ? undefined : String(value);
};

export function summarizeTool({ toolName, state, input, output, errorText }: ToolCallView): string {
  if (state === "output-error") return `${toolName} failed · ${(errorText ?? "error").split(/[:\n]/)[0]}`;
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
      if (status) return `Task ${id} → ${status}`;
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
    default:
      return done ? `Called ${toolName}` : `Calling ${toolName}`;
  }
}
