import { listModels } from "@/lib/ai/providers/choice";
import { otherMethodsNotAllowed, route } from "@/lib/http/request";

export const dynamic = "force-dynamic";

// The models a conversation may choose: `{ default, models: [{ id, provider, contextWindow, isDemo }] }`.
export const GET = route(async () => Response.json(listModels()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
