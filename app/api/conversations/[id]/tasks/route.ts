import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { addTaskByPerson, createTaskSchema, listConversationTasks } from "@/lib/chat/task-edits";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) =>
  Response.json(await listConversationTasks(parseWith(idSchema, id, "conversation id"))),
);

export const POST = route<{ id: string }>(async (request, { id }) => {
  const conversationId = parseWith(idSchema, id, "conversation id");
  const input = parseWith(createTaskSchema, await readJson(request));
  return Response.json(await addTaskByPerson(conversationId, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
