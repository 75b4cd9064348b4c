import { errorResponse } from "@/lib/api/errors";
import { otherMethodsNotAllowed } from "@/lib/http/request";
import { handleAccountsRequest } from "@/lib/http/account-routes";
import { authMode } from "@/lib/auth/mode";
import { authToken, SESSION_COOKIE, verifySessionValue, viaHttps } from "@/lib/auth/token";
import { endSession } from "@/lib/chat/sessions";

export const dynamic = "force-dynamic";

function cookieValue(request: Request): string | undefined {
  for (const pair of (request.headers.get("cookie") ?? "").split(";")) {
    const [name, ...rest] = pair.trim().split("=");
    if (name === SESSION_COOKIE) return rest.join("=");
  }
  return undefined;
}

// Accounts mode: better-auth deletes the session row. Token mode: revokes the session the cookie names (stored, so a copy of the cookie stays refused after a restart) and clears it.
export async function POST(request: Request) {
  if (authMode() === "accounts") return handleAccountsRequest(request, "sign-out");
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
