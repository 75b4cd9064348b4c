import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { exportOneConversation } from "@/lib/chat/organise";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) => {
  const exported = await exportOneConversation(parseWith(idSchema, id, "conversation id"));
  return new Response(exported.json, {
    headers: {
      "content-type": "application/json",
      "content-disposition": `attachment; filename="hintline-${exported.id}.json"`,
    },
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
