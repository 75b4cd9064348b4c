import { tool, zodSchema } from "ai";
import { z } from "zod";
import type { Task } from "../../chat-message.ts";
import { deleteTask, getTask, listTasks, type TaskChanges, updateTask } from "../../db/tasks.ts";
import { TaskToolError, withCallCount } from "./task-format.ts";
import { taskIdSchema } from "./task-get.ts";
import type { TaskToolContext } from "./task-tool-context.ts";

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
const taskUpdateSchema = zodSchema(taskUpdateInput);

/** The fields the update would actually change. */
function changedFields(task: Task, input: Input): string[] {
  const changed: string[] = [];
  if (input.subject !== undefined && input.subject !== task.subject) changed.push("subject");
  if (input.description !== undefined && input.description !== task.description) changed.push("description");
  if (input.status !== undefined && input.status !== task.status) changed.push("status");
  if (input.owner !== undefined && input.owner !== (task.owner ?? "")) changed.push("owner");
  if (input.add_blocks?.some((id) => !task.blocks.includes(id))) changed.push("blocks");
  if (input.add_blocked_by?.some((id) => !task.blockedBy.includes(id))) changed.push("blockedBy");
  if (input.metadata && Object.entries(input.metadata).some(([k, v]) => JSON.stringify(task.metadata[k] ?? null) !== JSON.stringify(v))) {
    changed.push("metadata");
  }
  return changed;
}

export function taskUpdateTool(ctx: TaskToolContext) {
  return tool({
    description:
      "Update a task: subject, description, status (pending, in_progress, completed, cancelled, or deleted to remove it), owner, blocking links, metadata.",
    inputSchema: taskUpdateSchema,
    execute: async (input) => {
      const call = ctx.nextCallNumber("TaskUpdate");
      const conversationId = ctx.conversationId;
      const task = await getTask({ conversationId, id: input.task_id });
      if (!task) {
        throw new TaskToolError(
          "TaskNotFoundError",
          `The task (id=${input.task_id}) does not exist.`,
          input,
          "Call TaskList to see the existing task ids, or TaskCreate to add the task.",
        );
      }
      if (input.status === "deleted") {
        await deleteTask({ conversationId, id: task.id });
        await ctx.onTasksChanged();
        return withCallCount(`Task (id=${task.id}) has been deleted.`, "TaskUpdate", call);
      }
      const links = [...(input.add_blocks ?? []), ...(input.add_blocked_by ?? [])];
      if (links.length) {
        const existing = new Set((await listTasks({ conversationId })).map((t) => t.id));
        const unknown = links.filter((id) => !existing.has(id) || id === task.id);
        if (unknown.length) {
          throw new TaskToolError(
            "InvalidArgumentError",
            `These ids cannot be linked: ${unknown.join(", ")} (unknown, or the task itself).`,
            input,
            "Link only to other existing task ids (see TaskList).",
          );
        }
      }
      if (input.subject !== undefined && !input.subject.trim()) {
        throw new TaskToolError("InvalidArgumentError", "The subject is empty.", input, "Send a non-empty subject or leave it out.");
      }
      const changed = changedFields(task, input);
      if (!changed.length) {
        return withCallCount(
          `No updates were made to the task (id=${task.id}). The values you sent match the current ones.`,
          "TaskUpdate",
          call,
        );
      }
      const changes: TaskChanges = {
        subject: input.subject?.trim(),
        description: input.description,
        status: input.status,
        owner: input.owner,
        metadata: input.metadata,
        addBlocks: input.add_blocks,
        addBlockedBy: input.add_blocked_by,
      };
      await updateTask({ conversationId, id: task.id, changes });
      await ctx.onTasksChanged();
      let text = `Update task (id=${task.id}) ${changed.join(", ")}.`;
      if (input.status === "completed" && task.status !== "completed") {
        text += " Task completed. Call TaskList now to find your next available task or see if your work unblocked others.";
      }
      return withCallCount(text, "TaskUpdate", call);
    },
  });
}
