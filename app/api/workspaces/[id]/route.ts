import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { updateWorkspaceSchema } from "@/lib/api/workspace-schemas";
import { workspaceWithTokens } from "@/lib/chat/workspace-tokens";
import { editWorkspace, removeWorkspace } from "@/lib/chat/workspaces";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_request, { id }) =>
  Response.json(await workspaceWithTokens(parseWith(idSchema, id, "workspace id"))),
);

export const PATCH = route<Params>(async (request, { id }) => {
  const workspaceId = parseWith(idSchema, id, "workspace id");
  const input = parseWith(updateWorkspaceSchema, await readJson(request));
  await editWorkspace(workspaceId, input);
  return Response.json(await workspaceWithTokens(workspaceId));
});

export const DELETE = route<Params>(async (_request, { id }) => {
  await removeWorkspace(parseWith(idSchema, id, "workspace id"));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
