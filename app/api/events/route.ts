import { otherMethodsNotAllowed, route } from "@/lib/http/request";
import { listenForDisabledUsers } from "@/lib/chat/disabled-users";
import { eventsResponse } from "@/lib/chat/live/event-stream";

export const dynamic = "force-dynamic";

export const GET = route(async (request, _params, viewer) => {
  // A disabled user's streams are closed on every instance: this one hears of it before it opens one.
  if (viewer.kind === "user") await listenForDisabledUsers();
  return eventsResponse(viewer, request.signal);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
