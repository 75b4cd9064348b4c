import { otherMethodsNotAllowed, route } from "@/lib/api/request";
import { listConversations } from "@/lib/db/conversations";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json(await listConversations()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
