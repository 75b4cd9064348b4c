import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { workspaceKnowledge } from "@/lib/chat/knowledge";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) =>
  Response.json(await workspaceKnowledge(parseWith(idSchema, id, "workspace id"))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
