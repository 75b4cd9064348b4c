import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema, searchQuerySchema } from "@/lib/api/schemas";
import { archivedParam, listedConversations } from "@/lib/chat/organise";
import { searchWorkspaceConversations } from "@/lib/chat/workspaces";

export const dynamic = "force-dynamic";

export const GET = route(async (request, _params, viewer) => {
  const params = new URL(request.url).searchParams;
  const raw = params.get("workspaceId");
  const workspaceId = raw === null ? undefined : parseWith(idSchema, raw, "workspaceId");
  const q = params.get("q");
  if (q !== null)
    return Response.json(await searchWorkspaceConversations(viewer, parseWith(searchQuerySchema, q, "q"), workspaceId));
  return Response.json(
    await listedConversations(viewer, { workspaceId, archived: archivedParam(params.get("archived")) }),
  );
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
