import { jsonResponse } from "@/lib/http/json-slices";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema, patchConversationSchema } from "@/lib/api/schemas";
import { removeConversation } from "@/lib/chat/conversation-list";
import { getConversationView } from "@/lib/chat/conversation-view";
import { updateConversationFields } from "@/lib/chat/update-conversation";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_request, { id }) =>
  jsonResponse(await getConversationView(parseWith(idSchema, id, "conversation id"))),
);

export const PATCH = route<Params>(async (request, { id }) => {
  const conversationId = parseWith(idSchema, id, "conversation id");
  const patch = parseWith(patchConversationSchema, await readJson(request));
  await updateConversationFields(conversationId, patch);
  return jsonResponse(await getConversationView(conversationId));
});

export const DELETE = route<Params>(async (_request, { id }) => {
  await removeConversation(parseWith(idSchema, id, "conversation id"));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
