import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { stateSourceNameSchema, updateStateSourceSchema } from "@/lib/api/state-source-schemas";
import { editStateSource, readStateSource, removeStateSource } from "@/lib/chat/state-sources";

export const dynamic = "force-dynamic";

type Params = { id: string; name: string };

const ids = ({ id, name }: Params) =>
  [parseWith(idSchema, id, "workspace id"), parseWith(stateSourceNameSchema, name, "source name")] as const;

export const GET = route<Params>(async (_request, params) => Response.json(await readStateSource(...ids(params))));

export const PATCH = route<Params>(async (request, params) => {
  const [workspaceId, name] = ids(params);
  const input = parseWith(updateStateSourceSchema, await readJson(request));
  return Response.json(await editStateSource(workspaceId, name, input));
});

export const DELETE = route<Params>(async (_request, params) => {
  await removeStateSource(...ids(params));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
