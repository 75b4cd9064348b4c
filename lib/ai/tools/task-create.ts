import { tool, zodSchema } from "ai";
import { z } from "zod";
import { createTask } from "../../db/tasks.ts";
import { TaskToolError, withCallCount } from "./task-format.ts";
import type { TaskToolContext } from "./task-tool-context.ts";

export const taskCreateInput = z.object({
  subject: z.string().describe("A short, imperative title for the task"),
  description: z.string().describe("What needs to be done, in enough detail to do it later"),
  metadata: z.looseObject({}).optional().describe("Optional key/value data to keep with the task"),
});

// Wrapped once per process: the AI SDK converts a zod schema to JSON Schema per tool object, and the tools are
// created per reply (their execute closes over the conversation), which cost ~5 ms per model call.
const taskCreateSchema = zodSchema(taskCreateInput);

export function taskCreateTool(ctx: TaskToolContext) {
  return tool({
    description: "Create a task in this conversation's task list. Use it to plan multi-step work; ids are sequential.",
    inputSchema: taskCreateSchema,
    execute: async (input) => {
      const call = ctx.nextCallNumber("TaskCreate");
      const subject = input.subject.trim();
      if (!subject) {
        throw new TaskToolError("InvalidArgumentError", "The subject is empty.", input, "Send a short, non-empty subject.");
      }
      const task = await createTask({
        conversationId: ctx.conversationId,
        subject: subject.slice(0, 500),
        description: input.description.slice(0, 10_000),
        metadata: input.metadata ?? {},
      });
      await ctx.onTasksChanged();
      return withCallCount(`Task (id=${task.id}) created successfully: ${task.subject}`, "TaskCreate", call);
    },
  });
}
