import { agentIdSchema, updateAgentSchema } from "@/lib/api/agent-schemas";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/api/request";
import { idSchema } from "@/lib/api/schemas";
import { editAgent, readAgent, removeAgent } from "@/lib/chat/agents";

export const dynamic = "force-dynamic";

type Params = { id: string; agentId: string };

const ids = ({ id, agentId }: Params) => [parseWith(idSchema, id, "workspace id"), parseWith(agentIdSchema, agentId, "agent id")] as const;

export const GET = route<Params>(async (_request, params) => Response.json(await readAgent(...ids(params))));

export const PATCH = route<Params>(async (request, params) => {
  const [workspaceId, agentId] = ids(params);
  const input = parseWith(updateAgentSchema, await readJson(request));
  return Response.json(await editAgent(workspaceId, agentId, input));
});

export const DELETE = route<Params>(async (_request, params) => {
  await removeAgent(...ids(params));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
