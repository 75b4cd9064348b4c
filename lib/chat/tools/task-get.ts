import { tool } from "ai";
import { z } from "zod";
import { getTask } from "../../db/tasks.ts";
import { formatTaskDetail } from "./task-format.ts";
import { textForModel, ToolError, toolOutput } from "../../agent/tool-result.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";

export const taskIdSchema = z.union([z.string(), z.number()]).transform((v) => String(v).trim().replace(/^#/, ""));

const taskGetInput = z.object({ task_id: taskIdSchema.describe('The task id, e.g. "3"') });
const taskGetSchema = lenientInputSchema(taskGetInput);

export function taskGetTool(ctx: ToolContext) {
  return tool({
    description: "Get one task's full details (status, description, owner, blocking links, metadata).",
    inputSchema: taskGetSchema,
    execute: async (raw) => {
      const toolName = "TaskGet";
      const call = ctx.nextCallNumber(toolName);
      const input = parseToolInput(taskGetInput, raw, { toolName, call, example: '{"task_id": "3"}' });
      const task = await getTask({ conversationId: ctx.conversationId, id: input.task_id });
      if (!task) {
        const advice = "Call TaskList to see the existing task ids.";
        throw new ToolError({ type: "TaskNotFoundError", text: "Task not found", args: raw, advice, toolName, call });
      }
      return toolOutput(toolName, call, formatTaskDetail(task), {
        taskId: task.id,
        subject: task.subject,
        status: task.status,
      });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
