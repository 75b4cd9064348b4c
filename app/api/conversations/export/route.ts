import { exportManySchema } from "@/lib/api/organise-schemas";
import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { exportConversations } from "@/lib/chat/organise";

export const dynamic = "force-dynamic";

// Several conversations as one JSON bundle `{ version, exportedAt, conversations: [...] }` (POST /import takes it back).
export const POST = route(async (request, _params, viewer) => {
  const { ids } = parseWith(exportManySchema, await readJson(request));
  const { json, count } = await exportConversations(viewer, ids);
  const name = `hintline-${count}-conversations.json`;
  return new Response(json, {
    headers: { "content-type": "application/json", "content-disposition": `attachment; filename="${name}"` },
  });
});

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
