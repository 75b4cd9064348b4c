import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { createMcpServerSchema } from "@/lib/api/mcp-schemas";
import { addMcpServer, workspaceMcpServers } from "@/lib/chat/mcp-servers";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_request, { id }) =>
  Response.json(await workspaceMcpServers(parseWith(idSchema, id, "workspace id"))),
);

export const POST = route<Params>(async (request, { id }) => {
  const workspaceId = parseWith(idSchema, id, "workspace id");
  const input = parseWith(createMcpServerSchema, await readJson(request));
  return Response.json(await addMcpServer(workspaceId, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
