import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { chatRequestSchema, continueRequestSchema } from "@/lib/api/schemas";
import { chatBodyTooLarge, maxChatBodyBytes } from "@/lib/chat/attachments";
import { startReply } from "@/lib/chat/start-reply";

export const dynamic = "force-dynamic";
export const maxDuration = 300;

export const POST = route(async (request, _params, viewer) => {
  const body = await readJson(request, { maxBytes: maxChatBodyBytes(), tooLarge: chatBodyTooLarge() });
  // `{ id, continue: true }` continues the last reply in place; anything else is a message.
  const continuing = typeof body === "object" && body !== null && "continue" in body;
  return startReply({
    request: continuing ? parseWith(continueRequestSchema, body) : parseWith(chatRequestSchema, body),
    viewer,
  });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
