// The person's task edits from the panel (REST). Each one is counted, so the agent's next step carries a "The user
// updated the task list." hint until one in the input it sends covers the edit.
import { z } from "zod";
import { ApiError } from "../api/errors.ts";
import { jsonObjectSchema } from "../api/schemas.ts";
import type { Task } from "../chat-message.ts";
import { getConversation } from "../db/conversations.ts";
import { createTask, deleteTask, getTask, listTasks, reorderTasks, TaskLimitError, updateTask } from "../db/tasks.ts";
import { patchAgentState } from "./agent-state.ts";

export const TASK_ID_PATTERN = /^[1-9][0-9]{0,8}$/;
const status = z.enum(["pending", "in_progress", "completed", "cancelled"], {
  message: 'must be one of "pending", "in_progress", "completed", "cancelled"',
});
const subject = z.string().trim().min(1, { message: "must not be empty" }).max(500);
const metadata = jsonObjectSchema;

export const createTaskSchema = z
  .object({
    subject,
    description: z.string().max(10_000).optional(),
    status: status.optional(),
    metadata: metadata.optional(),
  })
  .strict();

export const updateTaskSchema = z
  .object({
    subject: subject.optional(),
    description: z.string().max(10_000).optional(),
    status: status.optional(),
    owner: z.string().max(200).nullable().optional(),
    metadata: metadata.optional(),
    /** Moves the task to this 0-based place in the list. */
    position: z.number().int().min(0).max(100_000).optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: "send at least one field to change" });

async function requireConversation(conversationId: string): Promise<void> {
  if (!(await getConversation({ id: conversationId }))) {
    throw new ApiError("not_found", `Conversation ${conversationId} does not exist.`);
  }
}

function requireTaskId(taskId: string): string {
  if (!TASK_ID_PATTERN.test(taskId))
    throw new ApiError("bad_request", 'Invalid task id: must be a positive integer like "3".', "taskId");
  return taskId;
}

/** Counts the person's edit: the agent's next step is told, unless a hint in its input already covers it. */
const markEdited = (conversationId: string) =>
  patchAgentState(conversationId, (state) => ({ taskEdits: (state.taskEdits ?? 0) + 1 }));

export async function listConversationTasks(conversationId: string): Promise<Task[]> {
  await requireConversation(conversationId);
  return listTasks({ conversationId });
}

export async function addTaskByPerson(conversationId: string, input: z.infer<typeof createTaskSchema>): Promise<Task> {
  await requireConversation(conversationId);
  const task = await createTask({ conversationId, ...input }).catch((error: unknown) => {
    throw error instanceof TaskLimitError ? new ApiError("conflict", error.message) : error;
  });
  await markEdited(conversationId);
  return task;
}

export async function editTaskByPerson(
  conversationId: string,
  taskId: string,
  input: z.infer<typeof updateTaskSchema>,
): Promise<Task> {
  await requireConversation(conversationId);
  const id = requireTaskId(taskId);
  if (!(await getTask({ conversationId, id })))
    throw new ApiError("not_found", `Task ${id} does not exist in this conversation.`);
  const { position, ...changes } = input;
  if (position !== undefined) {
    const ids = (await listTasks({ conversationId })).map((t) => t.id).filter((t) => t !== id);
    ids.splice(Math.min(position, ids.length), 0, id);
    await reorderTasks({ conversationId, ids });
  }
  const task = Object.keys(changes).length
    ? await updateTask({ conversationId, id, changes })
    : await getTask({ conversationId, id });
  await markEdited(conversationId);
  return task!;
}

export async function deleteTaskByPerson(conversationId: string, taskId: string): Promise<void> {
  await requireConversation(conversationId);
  const id = requireTaskId(taskId);
  if (!(await deleteTask({ conversationId, id })))
    throw new ApiError("not_found", `Task ${id} does not exist in this conversation.`);
  await markEdited(conversationId);
}
