import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { deleteTaskByPerson, editTaskByPerson, updateTaskSchema } from "@/lib/chat/task-edits";

export const dynamic = "force-dynamic";

type Params = { id: string; taskId: string };

export const PATCH = route<Params>(async (request, { id, taskId }) => {
  const conversationId = parseWith(idSchema, id, "conversation id");
  const input = parseWith(updateTaskSchema, await readJson(request));
  return Response.json(await editTaskByPerson(conversationId, taskId, input));
});

export const DELETE = route<Params>(async (_request, { id, taskId }) => {
  await deleteTaskByPerson(parseWith(idSchema, id, "conversation id"), taskId);
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, OPTIONS } = otherMethodsNotAllowed("PATCH", "DELETE");
