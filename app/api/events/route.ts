import { otherMethodsNotAllowed, route } from "@/lib/api/request";
import { eventsResponse } from "@/lib/chat/live/event-stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request, _params, viewer) => eventsResponse(viewer, request.signal));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
