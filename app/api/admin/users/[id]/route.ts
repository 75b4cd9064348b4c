import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { editAccountUser, editUserSchema } from "@/lib/chat/admin";

export const dynamic = "force-dynamic";

export const PATCH = route<{ id: string }>(async (request, { id }, viewer) =>
  Response.json(await editAccountUser(viewer, id, parseWith(editUserSchema, await readJson(request)))),
);

export const { GET, POST, PUT, DELETE, OPTIONS } = otherMethodsNotAllowed("PATCH");
