import { tool } from "ai";
import { z } from "zod";
import type { Task } from "../../chat-message.ts";
import { deleteTask, getTask, listTasks, type TaskChanges, updateTask } from "../../db/tasks.ts";
import { oneLine } from "./task-format.ts";
import { textForModel, ToolError, toolOutput } from "../../agent/tool-result.ts";
import { taskIdSchema } from "./task-get.ts";
import type { ToolContext } from "./tool-context.ts";
import { lenientInputSchema, parseToolInput } from "./tool-input.ts";

export const taskUpdateInput = z.object({
  task_id: taskIdSchema.describe('The task id, e.g. "3"'),
  subject: z.string().optional(),
  description: z.string().optional(),
  status: z.enum(["pending", "in_progress", "completed", "cancelled", "deleted"]).optional(),
  owner: z.string().optional(),
  add_blocks: z.array(taskIdSchema).optional().describe("Ids of tasks that cannot start until this one is done"),
  add_blocked_by: z.array(taskIdSchema).optional().describe("Ids of tasks this one waits for"),
  // An open object rather than z.record: a record becomes JSON Schema "propertyNames", which OpenAI-compatible
  // providers do not support (the AI SDK warned about it on every call).
  metadata: z.looseObject({}).optional().describe("Merged into the metadata; null deletes a key"),
});

type Input = z.infer<typeof taskUpdateInput>;
const taskUpdateSchema = lenientInputSchema(taskUpdateInput);
const EXAMPLE = '{"task_id": "1", "status": "in_progress"}';

// AgentScope's texts (lib/chat/tools follows its TaskUpdate word for word).
const NOTHING_CHANGED = "Make sure you provided at least one field to update and the values are correct.";
const COMPLETED =
  "\n\nTask completed. Call TaskList now to find your next available task or see if your work unblocked others.";

/** The changes the update would actually make, as AgentScope names them and in its order. */
function changedFields(task: Task, input: Input, links: { blocks: string[]; blockedBy: string[] }): string[] {
  const changed: string[] = [];
  if (input.subject && input.subject !== task.subject) changed.push("subject");
  if (input.description !== undefined && input.description !== task.description) changed.push("description");
  if (links.blocks.length) changed.push("add_blocks");
  if (links.blockedBy.length) changed.push("add_blocked_by");
  if (input.status !== undefined && input.status !== task.status) changed.push("status");
  if (input.owner !== undefined && input.owner !== (task.owner ?? "")) changed.push("owner");
  if (
    input.metadata &&
    Object.entries(input.metadata).some(([k, v]) => JSON.stringify(task.metadata[k] ?? null) !== JSON.stringify(v))
  ) {
    changed.push("metadata");
  }
  return changed;
}

export function taskUpdateTool(ctx: ToolContext) {
  return tool({
    description:
      "Update a task: subject, description, status (pending, in_progress, completed, cancelled, or deleted to remove it), owner, blocking links, metadata.",
    inputSchema: taskUpdateSchema,
    execute: async (raw) => {
      const toolName = "TaskUpdate";
      const call = ctx.nextCallNumber(toolName);
      const parsed = parseToolInput(taskUpdateInput, raw, { toolName, call, example: EXAMPLE });
      // One line each: a subject and an owner are shown on one line of TaskList.
      const input = {
        ...parsed,
        subject: parsed.subject && oneLine(parsed.subject).trim(),
        owner: parsed.owner && oneLine(parsed.owner).trim(),
      };
      const conversationId = ctx.conversationId;
      const task = await getTask({ conversationId, id: input.task_id });
      if (!task) {
        throw new ToolError({
          type: "TaskNotFoundError",
          text: `TaskNotFoundError: The task (id=${input.task_id}) does not exist.`,
          args: raw,
          advice: "Call TaskList to see the existing task ids, or TaskCreate to add the task.",
          toolName,
          call,
        });
      }
      if (input.status === "deleted") {
        await deleteTask({ conversationId, id: task.id });
        await ctx.onTasksChanged();
        return toolOutput(toolName, call, `Task (id=${task.id}) has been deleted.`, {
          taskId: task.id,
          result: "deleted",
          changed: [],
        });
      }
      // Like AgentScope: links to ids that do not exist (or to the task itself) are left out, the rest applies.
      const links = { blocks: [] as string[], blockedBy: [] as string[] };
      if (input.add_blocks?.length || input.add_blocked_by?.length) {
        const existing = new Set((await listTasks({ conversationId })).map((t) => t.id));
        const usable = (ids: string[] | undefined, current: string[]) =>
          [...new Set(ids ?? [])].filter((id) => existing.has(id) && id !== task.id && !current.includes(id));
        links.blocks = usable(input.add_blocks, task.blocks);
        links.blockedBy = usable(input.add_blocked_by, task.blockedBy);
      }
      const changed = changedFields(task, input, links);
      let text: string;
      let status = task.status;
      if (!changed.length) {
        text = `No updates were made to the task (id=${task.id}). ${NOTHING_CHANGED}`;
      } else {
        const changes: TaskChanges = {
          subject: input.subject || undefined,
          description: input.description,
          status: input.status,
          owner: input.owner,
          metadata: input.metadata,
          addBlocks: links.blocks,
          addBlockedBy: links.blockedBy,
        };
        status = (await updateTask({ conversationId, id: task.id, changes }))?.status ?? input.status ?? task.status;
        await ctx.onTasksChanged();
        text = `Update task (id=${task.id}) ${changed.join(", ")}.`;
      }
      if (status === "completed") text += COMPLETED;
      return toolOutput(toolName, call, text, {
        taskId: task.id,
        result: changed.length ? "updated" : "unchanged",
        changed,
        status,
      });
    },
    toModelOutput: ({ output }) => textForModel(output),
  });
}
