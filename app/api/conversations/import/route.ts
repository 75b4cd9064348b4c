import { generateId } from "ai";
import { maxImportBytes } from "@/lib/api/limits";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/api/request";
import { importSchema } from "@/lib/api/schemas";
import { importConversation } from "@/lib/chat/conversation-view";

export const dynamic = "force-dynamic";

export const POST = route(async (request) => {
  const body = parseWith(importSchema, await readJson(request, { maxBytes: maxImportBytes() }));
  return Response.json(await importConversation(body, generateId), { status: 201 });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
