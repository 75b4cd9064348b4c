import { otherMethodsNotAllowed, route } from "@/lib/api/request";
import { listConversationSummaries } from "@/lib/chat/conversation-list";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json(await listConversationSummaries()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
