import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { resumeReply } from "@/lib/chat/live/live-reply";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const GET = route<{ id: string }>(async (_request, { id }) =>
  resumeReply(parseWith(idSchema, id, "conversation id")),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
