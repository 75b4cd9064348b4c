import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { createSkillSchema } from "@/lib/api/workspace-schemas";
import { addOwnSkill, ownSkills } from "@/lib/chat/own-definitions";

export const dynamic = "force-dynamic";

// The signed-in user's own skills (accounts mode): seen in every conversation of theirs, over the workspace's.
export const GET = route(async (_request, _params, viewer) => Response.json(await ownSkills(viewer)));

export const POST = route(async (request, _params, viewer) => {
  const input = parseWith(createSkillSchema, await readJson(request));
  return Response.json(await addOwnSkill(viewer, input), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
