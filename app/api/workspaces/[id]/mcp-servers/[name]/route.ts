import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { isAdmin } from "@/lib/auth/viewer";
import { mcpServerNameSchema, updateMcpServerSchema } from "@/lib/api/mcp-schemas";
import { editMcpServer, readMcpServer, removeMcpServer } from "@/lib/chat/mcp-servers";

export const dynamic = "force-dynamic";

type Params = { id: string; name: string };

const ids = ({ id, name }: Params) =>
  [parseWith(idSchema, id, "workspace id"), parseWith(mcpServerNameSchema, name, "server name")] as const;

export const GET = route<Params>(async (_request, params, viewer) =>
  Response.json(await readMcpServer(...ids(params), { operator: isAdmin(viewer) })),
);

export const PATCH = route<Params>(async (request, params) => {
  const [workspaceId, name] = ids(params);
  const input = parseWith(updateMcpServerSchema, await readJson(request));
  return Response.json(await editMcpServer(workspaceId, name, input));
});

export const DELETE = route<Params>(async (_request, params) => {
  await removeMcpServer(...ids(params));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
