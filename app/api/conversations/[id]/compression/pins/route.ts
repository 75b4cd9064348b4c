import { otherMethodsNotAllowed, parseWith, readJson, route } from "@/lib/http/request";
import { idSchema } from "@/lib/api/schemas";
import { listPins, pinLedgerItem, pinSchema } from "@/lib/chat/compression-pins";

export const dynamic = "force-dynamic";

export const GET = route<{ id: string }>(async (_request, { id }) =>
  Response.json(await listPins(parseWith(idSchema, id, "conversation id"))),
);

export const POST = route<{ id: string }>(async (request, { id }) => {
  const conversationId = parseWith(idSchema, id, "conversation id");
  return Response.json(await pinLedgerItem(conversationId, parseWith(pinSchema, await readJson(request))));
});

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET", "POST");
