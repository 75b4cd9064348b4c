import { otherMethodsNotAllowed, parseWith, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { getContextView } from "@/lib/chat/context-view";

export const dynamic = "force-dynamic";

// ?hints=false previews the same context without the hints.
export const GET = route<{ id: string }>(async (request, { id }) => {
  const hints = new URL(request.url).searchParams.get("hints") !== "false";
  return Response.json(await getContextView(parseWith(idSchema, id, "conversation id"), { hints }));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
