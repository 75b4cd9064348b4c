// The agent's tools for one reply.
import { taskCreateTool } from "./task-create.ts";
import { taskGetTool } from "./task-get.ts";
import { taskListTool } from "./task-list.ts";
import type { TaskToolContext } from "./task-tool-context.ts";
import { taskUpdateTool } from "./task-update.ts";

export const TOOL_NAMES = ["TaskCreate", "TaskGet", "TaskList", "TaskUpdate"] as const;

export function createTools(ctx: TaskToolContext) {
  return {
    TaskCreate: taskCreateTool(ctx),
    TaskGet: taskGetTool(ctx),
    TaskList: taskListTool(ctx),
    TaskUpdate: taskUpdateTool(ctx),
  } satisfies Record<(typeof TOOL_NAMES)[number], unknown>;
}

export type ChatTools = ReturnType<typeof createTools>;
