import { otherMethodsNotAllowed, route } from "@/lib/http/request";
import { aboutMe } from "@/lib/chat/account-pages";

export const dynamic = "force-dynamic";

// Who is signed in (accounts mode), with their budget and usage against it: the header's user menu and /me ask.
export const GET = route(async (_request, _params, viewer) => Response.json(await aboutMe(viewer)));

export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");
