import { tool } from "ai";
import { z } from "zod";
import { createTask } from "../../db/tasks.ts";
import { oneLine } from "./task-format.ts";
import { textForModel, ToolError, toolOutput } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";

export const taskCreateInput = z.object({
  subject: z.string().describe("A short, imperative title for the task"),
  description: z.string().describe("What needs to be done, in enough detail to do it later"),
  metadata: z.looseObject({}).optional().describe("Optional key/value data to keep with the task"),
});

// Wrapped once per process: the AI SDK converts a zod schema to JSON Schema per tool object, and the tools are
// created per reply (their execute closes over the conversation), which cost ~5 ms per model call.
const taskCreateSchema = lenientInputSchema(taskCreateInput);
const EXAMPLE = '{"subject": "Write the tests", "description": "Cover the API routes"}';

export function taskCreateTool(ctx: ToolContext) {
  return tool({
    description: "Create a task in this conversation's task list. Use it to plan multi-step work; ids are sequential.",
    inputSchema: taskCreateSchema,
    execute: async (raw) => {
      const toolName = "TaskCreate";
      const call = ctx.nextCallNumber(toolName);
      const input = parseToolInput(taskCreateInput, raw, { toolName, call, example: EXAMPLE });
      // One line: a subject is shown on one line of TaskList, where a line break would forge another task.
      const subject = oneLine(input.subject).trim();
      if (!subject) {
        const advice = "Send a short, non-empty subject.";
        throw new ToolError({
          type: "InvalidArgumentsError",
          text: "InvalidArgumentsError: The subject is empty.",
          args: raw,
          advice,
          toolName,
          call,
        });
      }
      const task = await createTask({
        conversationId: ctx.conversationId,
        subject: subject.slice(0, 500),
        description: input.description.slice(0, 10_000),
        metadata: input.metadata ?? {},
      });
      await ctx.onTasksChanged();
      return toolOutput(toolName, call, `Task (id=${task.id}) created successfully: ${task.subject}`, {
        taskId: task.id,
        subject: task.subject,
      });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
