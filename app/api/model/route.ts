import { otherMethodsNotAllowed, route } from "@/lib/http/request";
import { modelInfoFor } from "@/lib/ai/providers/choice";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json(modelInfoFor()));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
