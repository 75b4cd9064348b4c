import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { createWorkspaceSchema } from "@/lib/api/workspace-schemas";
import { addWorkspace, visibleWorkspaces } from "@/lib/chat/workspaces";

export const dynamic = "force-dynamic";

export const GET = route(async (_request, _params, viewer) => Response.json(await visibleWorkspaces(viewer)));

export const POST = route(async (request, _params, viewer) => {
  const input = parseWith(createWorkspaceSchema, await readJson(request));
  return Response.json(await addWorkspace(viewer, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
