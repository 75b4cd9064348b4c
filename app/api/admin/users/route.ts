import { otherMethodsNotAllowed, route } from "@/lib/http/request";
import { accountUsers } from "@/lib/chat/admin";

export const dynamic = "force-dynamic";

export const GET = route(async (_request, _params, viewer) => Response.json(await accountUsers(viewer)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
