import { agentIdSchema, updateAgentSchema } from "@/lib/api/agent-schemas";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { ownerIdOf, type Viewer } from "@/lib/auth/viewer";
import { editAgent, readAgent, removeAgent } from "@/lib/chat/agents";

export const dynamic = "force-dynamic";

type Params = { id: string; agentId: string };

// The workspace as the viewer sees it (their own level and default's beside it), and the agent id.
const ids = ({ id, agentId }: Params, viewer: Viewer) =>
  [
    { workspaceId: parseWith(idSchema, id, "workspace id"), ownerId: ownerIdOf(viewer) },
    parseWith(agentIdSchema, agentId, "agent id"),
  ] as const;

export const GET = route<Params>(async (_request, params, viewer) =>
  Response.json(await readAgent(...ids(params, viewer))),
);

export const PATCH = route<Params>(async (request, params, viewer) => {
  const [scope, agentId] = ids(params, viewer);
  const input = parseWith(updateAgentSchema, await readJson(request));
  return Response.json(await editAgent(scope, agentId, input));
});

export const DELETE = route<Params>(async (_request, params, viewer) => {
  await removeAgent(...ids(params, viewer));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
