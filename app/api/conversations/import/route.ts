import { generateId } from "ai";
import { MAX_IMPORT_BODY_BYTES, otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/api/request";
import { importSchema } from "@/lib/api/schemas";
import { importConversation } from "@/lib/chat/conversation-view";

export const dynamic = "force-dynamic";

export const POST = route(async (request) => {
  const body = parseWith(importSchema, await readJson(request, { maxBytes: MAX_IMPORT_BODY_BYTES }));
  return Response.json(await importConversation(body, generateId), { status: 201 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
