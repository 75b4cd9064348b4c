import { type NextRequest, NextResponse } from "next/server";
import { authToken, SESSION_COOKIE, safeEqual, sessionValue } from "@/lib/auth";

const OPEN_PATHS = new Set(["/sign-in", "/api/auth/sign-in"]);
const UNSAFE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Same-origin when the Origin's host is the Host the request was sent to (an unparsable or "null" Origin is not).
 * Without an Origin (curl, scripts) only a browser's Sec-Fetch-Site can still mark the request as cross-site.
 */
function sameOrigin(request: NextRequest): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return request.headers.get("sec-fetch-site") !== "cross-site";
  try {
    return new URL(origin).host === request.headers.get("host");
  } catch {
    return false;
  }
}

function crossSite(): NextResponse {
  return NextResponse.json({ error: { code: "forbidden", message: "Cross-site requests are not allowed." } }, { status: 403 });
}

function unauthorized(): NextResponse {
  return NextResponse.json(
    { error: { code: "unauthorized", message: "Sign in first: send Authorization: Bearer <HINTLINE_AUTH_TOKEN>." } },
    { status: 401 },
  );
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

export async function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  // Next.js answers a path with broken percent-encoding (e.g. "/api/conversations/%E0%A4") with a bare 500.
  if (!decodable(path)) {
    const message = "The URL path is not valid percent-encoding.";
    if (path.startsWith("/api/")) return NextResponse.json({ error: { code: "bad_request", message } }, { status: 400 });
    return new NextResponse(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  // Another site's page can make the browser send a write (a form post) with or without a session: a write that a
  // browser marks as coming from another origin is refused whether or not a token is configured.
  if (UNSAFE_METHODS.has(request.method) && !sameOrigin(request)) return crossSite();
  const token = authToken();
  if (!token) return NextResponse.next();
  if (OPEN_PATHS.has(path)) return NextResponse.next();

  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (bearer && safeEqual(bearer, token)) return NextResponse.next();

  const cookie = request.cookies.get(SESSION_COOKIE)?.value;
  // The cookie is SameSite=Strict, and a cross-origin write carrying one was refused above.
  if (cookie && safeEqual(cookie, await sessionValue(token))) return NextResponse.next();
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
