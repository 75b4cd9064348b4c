import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { agentsView } from "@/lib/chat/subagent-view";

export const dynamic = "force-dynamic";

// The conversation's subagents alone (the side panel loads them again on each "agents" change event).
export const GET = route<{ id: string }>(async (_request, { id }) =>
  Response.json(await agentsView(parseWith(idSchema, id, "conversation id"))),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
