import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { createSkillSchema } from "@/lib/api/workspace-schemas";
import { addSkill, workspaceSkills } from "@/lib/chat/skills";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_request, { id }) =>
  Response.json(await workspaceSkills(parseWith(idSchema, id, "workspace id"))),
);

export const POST = route<Params>(async (request, { id }) => {
  const workspaceId = parseWith(idSchema, id, "workspace id");
  const input = parseWith(createSkillSchema, await readJson(request));
  return Response.json(await addSkill(workspaceId, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
