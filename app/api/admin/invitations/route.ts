import { otherMethodsNotAllowed, route } from "@/lib/http/request";
import { inviteSomeone } from "@/lib/chat/admin";

export const dynamic = "force-dynamic";

export const POST = route(async (request, _params, viewer) =>
  Response.json(await inviteSomeone(viewer, request), { status: 201 }),
);

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
