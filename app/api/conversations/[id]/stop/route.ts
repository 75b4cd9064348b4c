import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { stopLiveReply } from "@/lib/chat/live/live-reply";

export const dynamic = "force-dynamic";

export const POST = route<{ id: string }>(async (_request, { id }) =>
  Response.json(await stopLiveReply(parseWith(idSchema, id, "conversation id"))),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
