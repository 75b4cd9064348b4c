import { connectionIdSchema, updateConnectionSchema } from "@/lib/api/connection-schemas";
import { editConnection, removeConnection } from "@/lib/chat/connections";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const PATCH = route<Params>(async (request, { id }, viewer) => {
  const connectionId = parseWith(connectionIdSchema, id, "connection id");
  const patch = parseWith(updateConnectionSchema, await readJson(request));
  return Response.json(await editConnection(viewer, connectionId, patch));
});

export const DELETE = route<Params>(async (_request, { id }, viewer) => {
  await removeConnection(viewer, parseWith(connectionIdSchema, id, "connection id"));
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, OPTIONS } = otherMethodsNotAllowed("PATCH", "DELETE");
