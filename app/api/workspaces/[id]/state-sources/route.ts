import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { createStateSourceSchema } from "@/lib/api/state-source-schemas";
import { addStateSource, workspaceStateSources } from "@/lib/chat/state-sources";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_request, { id }) =>
  Response.json(await workspaceStateSources(parseWith(idSchema, id, "workspace id"))),
);

export const POST = route<Params>(async (request, { id }) => {
  const workspaceId = parseWith(idSchema, id, "workspace id");
  const input = parseWith(createStateSourceSchema, await readJson(request));
  return Response.json(await addStateSource(workspaceId, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
