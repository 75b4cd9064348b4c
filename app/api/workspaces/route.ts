import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/api/request";
import { createWorkspaceSchema } from "@/lib/api/workspace-schemas";
import { addWorkspace, listWorkspaces } from "@/lib/chat/workspaces";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json(await listWorkspaces()));

export const POST = route(async (request) => {
  const input = parseWith(createWorkspaceSchema, await readJson(request));
  return Response.json(await addWorkspace(input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
