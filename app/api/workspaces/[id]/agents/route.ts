import { createAgentSchema } from "@/lib/api/agent-schemas";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { ownerIdOf } from "@/lib/auth/viewer";
import { addAgent, workspaceAgents } from "@/lib/chat/agents";

export const dynamic = "force-dynamic";

type Params = { id: string };

// Every agent the viewer's conversations in the workspace see (their own level and default's included).
export const GET = route<Params>(async (_request, { id }, viewer) =>
  Response.json(
    await workspaceAgents({ workspaceId: parseWith(idSchema, id, "workspace id"), ownerId: ownerIdOf(viewer) }),
  ),
);

export const POST = route<Params>(async (request, { id }) => {
  const workspaceId = parseWith(idSchema, id, "workspace id");
  const input = parseWith(createAgentSchema, await readJson(request));
  return Response.json(await addAgent(workspaceId, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
