import { modelChoices } from "@/lib/chat/connections";
import { otherMethodsNotAllowed, route } from "@/lib/http/request";

export const dynamic = "force-dynamic";

// The models a conversation may choose: `{ default, models: [{ id, provider, contextWindow, isDemo, connection? }] }`;
// `?refresh=1` asks every connection's server again first.
export const GET = route(async (request) =>
  Response.json(await modelChoices({ refresh: new URL(request.url).searchParams.get("refresh") === "1" })),
);

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
