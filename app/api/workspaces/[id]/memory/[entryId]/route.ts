import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { memoryEntrySchema } from "@/lib/api/workspace-schemas";
import { editMemoryEntry, forgetMemoryEntry } from "@/lib/chat/workspaces";

export const dynamic = "force-dynamic";

type Params = { id: string; entryId: string };

export const PATCH = route<Params>(async (request, { id, entryId }) => {
  const workspaceId = parseWith(idSchema, id, "workspace id");
  const entry = parseWith(idSchema, entryId, "memory entry id");
  const { text } = parseWith(memoryEntrySchema, await readJson(request));
  return Response.json(await editMemoryEntry(workspaceId, entry, text));
});

export const DELETE = route<Params>(async (_request, { id, entryId }) => {
  await forgetMemoryEntry(parseWith(idSchema, id, "workspace id"), parseWith(idSchema, entryId, "memory entry id"));
  return new Response(null, { status: 204 });
});

export const { GET, POST, PUT, OPTIONS } = otherMethodsNotAllowed("PATCH", "DELETE");
