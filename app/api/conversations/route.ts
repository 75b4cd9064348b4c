import { otherMethodsNotAllowed, parseWith, route } from "@/lib/api/request";
import { idSchema } from "@/lib/api/schemas";
import { workspaceConversations } from "@/lib/chat/workspaces";

export const dynamic = "force-dynamic";

export const GET = route(async (request) => {
  const workspaceId = new URL(request.url).searchParams.get("workspaceId");
  return Response.json(await workspaceConversations(workspaceId === null ? undefined : parseWith(idSchema, workspaceId, "workspaceId")));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
