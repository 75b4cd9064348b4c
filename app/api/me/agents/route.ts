import { createAgentSchema } from "@/lib/api/agent-schemas";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { addOwnAgent, ownAgents } from "@/lib/chat/own-definitions";

export const dynamic = "force-dynamic";

// The signed-in user's own agent definitions (accounts mode): seen in every conversation of theirs, over the workspace's.
export const GET = route(async (_request, _params, viewer) => Response.json(await ownAgents(viewer)));

export const POST = route(async (request, _params, viewer) => {
  const input = parseWith(createAgentSchema, await readJson(request));
  return Response.json(await addOwnAgent(viewer, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
