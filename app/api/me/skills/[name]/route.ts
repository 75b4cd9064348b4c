import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { skillNameSchema, updateSkillSchema } from "@/lib/api/workspace-schemas";
import { editOwnSkill, readOwnSkill, removeOwnSkill } from "@/lib/chat/own-definitions";

export const dynamic = "force-dynamic";

type Params = { name: string };

const nameOf = ({ name }: Params) => parseWith(skillNameSchema, name, "skill name");

export const GET = route<Params>(async (_request, params, viewer) =>
  Response.json(await readOwnSkill(viewer, nameOf(params))),
);

export const PATCH = route<Params>(async (request, params, viewer) => {
  const name = nameOf(params);
  const input = parseWith(updateSkillSchema, await readJson(request));
  return Response.json(await editOwnSkill(viewer, name, input));
});

export const DELETE = route<Params>(async (_request, params, viewer) => {
  await removeOwnSkill(viewer, nameOf(params));
  return new Response(null, { status: 204 });
});

export const { POST, PUT, OPTIONS } = otherMethodsNotAllowed("GET", "PATCH", "DELETE");
