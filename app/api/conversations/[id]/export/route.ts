import { otherMethodsNotAllowed, parseWith, route } from "@/lib/api/request";
import { idSchema } from "@/lib/api/schemas";
import { exportConversation } from "@/lib/chat/conversation-view";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) => {
  const body = await exportConversation(parseWith(idSchema, id, "conversation id"));
  return Response.json(body, {
    headers: { "content-disposition": `attachment; filename="hintline-${body.conversation.id}.json"` },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
