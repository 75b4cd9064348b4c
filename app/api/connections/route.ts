import { createConnectionSchema } from "@/lib/api/connection-schemas";
import { addConnection, connectionViews } from "@/lib/chat/connections";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";

export const dynamic = "force-dynamic";

// The model endpoints: the environment's (read-only) and those added here. Admins only in accounts mode.
export const GET = route(async (_request, _params, viewer) => Response.json(await connectionViews(viewer)));

export const POST = route(async (request, _params, viewer) => {
  const input = parseWith(createConnectionSchema, await readJson(request));
  return Response.json(await addConnection(viewer, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
