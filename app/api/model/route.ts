import { otherMethodsNotAllowed, route } from "@/lib/api/request";
import { currentModel } from "@/lib/ai/providers";

export const dynamic = "force-dynamic";

export const GET = route(async () => Response.json(currentModel().info));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
