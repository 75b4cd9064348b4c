import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { ApiError } from "@/lib/api/errors";
import { idSchema, searchQuerySchema, searchScopeSchema } from "@/lib/api/schemas";
import { archivedParam, listedConversations } from "@/lib/chat/organise";
import { searchWorkspaceConversations } from "@/lib/chat/workspaces";

export const dynamic = "force-dynamic";

export const GET = route(async (request, _params, viewer) => {
  const params = new URL(request.url).searchParams;
  const raw = params.get("workspaceId");
  const workspaceId = raw === null ? undefined : parseWith(idSchema, raw, "workspaceId");
  const q = params.get("q");
  const rawScope = params.get("scope");
  const scope = rawScope === null ? undefined : parseWith(searchScopeSchema, rawScope, "scope");
  if (q !== null)
    return Response.json(
      await searchWorkspaceConversations(viewer, parseWith(searchQuerySchema, q, "q"), { workspaceId, scope }),
    );
  if (scope !== undefined)
    throw new ApiError("bad_request", "scope is a search's: give the words to look for in q.", "scope");
  return Response.json(
    await listedConversations(viewer, { workspaceId, archived: archivedParam(params.get("archived")) }),
  );
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
