import { tool, zodSchema } from "ai";
import { z } from "zod";
import { getTask } from "../../db/tasks.ts";
import { formatTaskDetail, TaskToolError, withCallCount } from "./task-format.ts";
import type { TaskToolContext } from "./task-tool-context.ts";

export const taskIdSchema = z.union([z.string(), z.number()]).transform((v) => String(v).trim().replace(/^#/, ""));

const taskGetSchema = zodSchema(z.object({ task_id: taskIdSchema.describe("The task id, e.g. \"3\"") }));

export function taskGetTool(ctx: TaskToolContext) {
  return tool({
    description: "Get one task's full details (status, description, owner, blocking links, metadata).",
    inputSchema: taskGetSchema,
    execute: async (input) => {
      const call = ctx.nextCallNumber("TaskGet");
      const task = await getTask({ conversationId: ctx.conversationId, id: input.task_id });
      if (!task) {
        throw new TaskToolError("TaskNotFoundError", "Task not found", input, "Call TaskList to see the existing task ids.");
      }
      return withCallCount(formatTaskDetail(task), "TaskGet", call);
    },
  });
}
