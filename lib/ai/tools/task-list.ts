import { tool, zodSchema } from "ai";
import { z } from "zod";
import { listTasks } from "../../db/tasks.ts";
import { formatTaskList, withCallCount } from "./task-format.ts";
import type { TaskToolContext } from "./task-tool-context.ts";

const taskListSchema = zodSchema(z.object({}));

export function taskListTool(ctx: TaskToolContext) {
  return tool({
    description: "List every task in this conversation with its id, status and subject.",
    inputSchema: taskListSchema,
    execute: async () => {
      const call = ctx.nextCallNumber("TaskList");
      return withCallCount(formatTaskList(await listTasks({ conversationId: ctx.conversationId })), "TaskList", call);
    },
  });
}
