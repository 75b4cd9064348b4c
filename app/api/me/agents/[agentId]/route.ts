import { agentIdSchema, updateAgentSchema } from "@/lib/api/agent-schemas";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { editOwnAgent, readOwnAgent, removeOwnAgent } from "@/lib/chat/own-definitions";

export const dynamic = "force-dynamic";

type Params = { agentId: string };

const idOf = ({ agentId }: Params) => parseWith(agentIdSchema, agentId, "agent id");

export const GET = route<Params>(async (_request, params, viewer) =>
  Response.json(await readOwnAgent(viewer, idOf(params))),
);

export const PATCH = route<Params>(async (request, params, viewer) => {
  const id = idOf(params);
  const input = parseWith(updateAgentSchema, await readJson(request));
  return Response.json(await editOwnAgent(viewer, id, input));
});

export const DELETE = route<Params>(async (_request, params, viewer) => {
  await removeOwnAgent(viewer, idOf(params));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
