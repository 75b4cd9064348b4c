import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema, queueEditSchema } from "@/lib/api/schemas";
import { cancelQueuedMessage, editQueuedText } from "@/lib/chat/queue";

export const dynamic = "force-dynamic";

type Params = { id: string; messageId: string };

export const PATCH = route<Params>(async (request, { id, messageId }) => {
  const conversationId = parseWith(idSchema, id, "conversation id");
  const queuedId = parseWith(idSchema, messageId, "message id");
  const { text } = parseWith(queueEditSchema, await readJson(request));
  return Response.json(await editQueuedText(conversationId, queuedId, text));
});

export const DELETE = route<Params>(async (_request, { id, messageId }) => {
  await cancelQueuedMessage(parseWith(idSchema, id, "conversation id"), parseWith(idSchema, messageId, "message id"));
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, OPTIONS } = otherMethodsNotAllowed("PATCH", "DELETE");
