import { tool } from "ai";
import { z } from "zod";
import { listTasks } from "../../db/tasks.ts";
import { TASK_PAGE_DEFAULT, TASK_PAGE_MAX, taskListPage } from "./task-format.ts";
import { textForModel, toolOutput } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";

// AgentScope's TaskList takes no arguments; the optional page keeps a long list's result bounded.
const taskListInput = z.object({
  offset: z.number().int().min(0).optional().describe("Skip this many tasks (for the next page of a long list)"),
  limit: z
    .number()
    .int()
    .min(1)
    .max(TASK_PAGE_MAX)
    .optional()
    .describe(`Tasks per page (default ${TASK_PAGE_DEFAULT})`),
});
const taskListSchema = lenientInputSchema(taskListInput);

export function taskListTool(ctx: ToolContext) {
  return tool({
    description:
      "List the tasks in this conversation with their id, status and subject. A long list comes in pages, open tasks first.",
    inputSchema: taskListSchema,
    execute: async (raw) => {
      const toolName = "TaskList";
      const call = ctx.nextCallNumber(toolName);
      const input = parseToolInput(taskListInput, raw, { toolName, call, example: '{} or {"offset": 50}' });
      const tasks = await listTasks({ conversationId: ctx.conversationId });
      const page = taskListPage(tasks, input);
      return toolOutput(toolName, call, page.text, {
        total: tasks.length,
        offset: input.offset ?? 0,
        shown: page.shown,
      });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
