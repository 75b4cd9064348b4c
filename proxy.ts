import { type NextRequest, NextResponse } from "next/server";
import { authToken, SESSION_COOKIE, safeEqual, sessionValue } from "@/lib/auth";

const OPEN_PATHS = new Set(["/sign-in", "/api/auth/sign-in"]);
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Same-site when the Origin's host is the Host the request was sent to (an unparsable or "null" Origin is not). */
function sameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return true;
  try {
    return new URL(origin).host === request.headers.get("host");
  } catch {
    return false;
  }
}

function unauthorized(): NextResponse {
  return NextResponse.json(
    { error: { code: "unauthorized", message: "Sign in first: send Authorization: Bearer <HINTLINE_AUTH_TOKEN>." } },
    { status: 401 },
  );
}

export async function proxy(request: NextRequest) {
  const token = authToken();
  if (!token) return NextResponse.next();
  const path = request.nextUrl.pathname;
  if (OPEN_PATHS.has(path)) return NextResponse.next();

  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (bearer && safeEqual(bearer, token)) return NextResponse.next();

  const cookie = request.cookies.get(SESSION_COOKIE)?.value;
  if (cookie && safeEqual(cookie, await sessionValue(token))) {
    // The cookie is SameSite=Strict; a cross-site request that still carries one is refused by its Origin.
    if (UNSAFE_METHODS.has(request.method) && !sameOrigin(request)) {
      return NextResponse.json({ error: { code: "forbidden", message: "Cross-site requests are not allowed." } }, { status: 403 });
    }
    return NextResponse.next();
  }
  if (path.startsWith("/api/")) return unauthorized();
  // Built from the Host the browser used (behind `next start`, request.url always says localhost).
  const host = request.headers.get("host") ?? request.nextUrl.host;
  const protocol = request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(":", "");
  const signIn = new URL(`${protocol}://${host}/sign-in`);
  signIn.searchParams.set("next", path);
  return NextResponse.redirect(signIn);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
