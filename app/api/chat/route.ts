import { MAX_CHAT_TEXT_BODY_BYTES, otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/api/request";
import { chatRequestSchema } from "@/lib/api/schemas";
import { maxChatBodyBytes } from "@/lib/chat/attachments";
import { startReply } from "@/lib/chat/start-reply";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const POST = route(async (request) => {
  const body = parseWith(chatRequestSchema, await readJson(request, { maxBytes: maxChatBodyBytes(MAX_CHAT_TEXT_BODY_BYTES) }));
  return startReply({ request: body });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
