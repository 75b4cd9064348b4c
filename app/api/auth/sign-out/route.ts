import { errorResponse } from "@/lib/api/errors";
import { otherMethodsNotAllowed } from "@/lib/api/request";
import { authToken, SESSION_COOKIE, verifySessionValue, viaHttps } from "@/lib/auth";
import { endSession } from "@/lib/chat/sessions";

export const dynamic = "force-dynamic";

function cookieValue(request: Request): string | undefined {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = pair.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=");
  }
  return undefined;
}

// Revokes the session the cookie names (stored, so a copy of the cookie stays refused after a restart) and clears it.
export async function POST(request: Request) {
  const token = authToken();
  const value = cookieValue(request);
  const session = token && value ? await verifySessionValue(token, value) : null;
  if (session) {
    try {
      await endSession(session);
    } catch (error) {
      return errorResponse(error);
    }
  }
  return new Response(null, {
    status: 303,
    headers: {
      location: "/sign-in",
      "set-cookie": `${SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0${viaHttps(request) ? "; Secure" : ""}`,
    },
  });
}

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
