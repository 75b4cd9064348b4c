import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { skillNameSchema, updateSkillSchema } from "@/lib/api/workspace-schemas";
import { editSkill, readSkill, removeSkill } from "@/lib/chat/skills";

export const dynamic = "force-dynamic";

type Params = { id: string; name: string };

const ids = ({ id, name }: Params) =>
  [parseWith(idSchema, id, "workspace id"), parseWith(skillNameSchema, name, "skill name")] as const;

export const GET = route<Params>(async (_request, params) => Response.json(await readSkill(...ids(params))));

export const PATCH = route<Params>(async (request, params) => {
  const [workspaceId, name] = ids(params);
  const input = parseWith(updateSkillSchema, await readJson(request));
  return Response.json(await editSkill(workspaceId, name, input));
});

export const DELETE = route<Params>(async (_request, params) => {
  await removeSkill(...ids(params));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
