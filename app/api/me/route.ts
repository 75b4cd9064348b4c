import { otherMethodsNotAllowed, route } from "@/lib/http/request";
import { aboutMe } from "@/lib/chat/account-pages";

export const dynamic = "force-dynamic";

// Who is signed in (accounts mode): the header's user menu asks.
export const GET = route(async (_request, _params, viewer) => Response.json(aboutMe(viewer)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
