import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { ownerIdOf } from "@/lib/auth/viewer";
import { memoryEntrySchema } from "@/lib/api/workspace-schemas";
import { rememberEntry, workspaceMemory } from "@/lib/chat/workspaces";

export const dynamic = "force-dynamic";

type Params = { id: string };

export const GET = route<Params>(async (_request, { id }) =>
  Response.json(await workspaceMemory(parseWith(idSchema, id, "workspace id"))),
);

export const POST = route<Params>(async (request, { id }, viewer) => {
  const workspaceId = parseWith(idSchema, id, "workspace id");
  const { text } = parseWith(memoryEntrySchema, await readJson(request));
  return Response.json(await rememberEntry(workspaceId, text, "person", undefined, ownerIdOf(viewer)), { status: 201 });
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
