import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema, queueRequestSchema } from "@/lib/api/schemas";
import { chatBodyTooLarge, maxChatBodyBytes } from "@/lib/chat/attachments";
import { listQueue, queueForConversation } from "@/lib/chat/queue";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) =>
  Response.json(await listQueue(parseWith(idSchema, id, "conversation id"))),
);

export const POST = route<{ id: string }>(async (request, { id }, viewer) => {
  const conversationId = parseWith(idSchema, id, "conversation id");
  const body = await readJson(request, { maxBytes: maxChatBodyBytes(), tooLarge: chatBodyTooLarge() });
  const answer = await queueForConversation(conversationId, parseWith(queueRequestSchema, body), viewer);
  return Response.json(answer, { status: 202 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
