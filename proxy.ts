import { type NextRequest, NextResponse } from "next/server";
import { hasAccountsCookie } from "@/lib/auth/accounts-cookie";
import { authMode } from "@/lib/auth/mode";
import { clientAddress, recordSignInFailure, signInRetryAfter } from "@/lib/auth/sign-in-limit";
import { viewerOrNull } from "@/lib/auth/viewer";
import { allowedHost, authToken, SESSION_COOKIE, safeEqual, verifySessionValue } from "@/lib/auth/token";
import { isSessionRevoked } from "@/lib/chat/sessions";

const OPEN_PATHS = new Set(["/sign-in", "/api/auth/sign-in", "/api/health"]);
// Accounts mode: signing up and in, and better-auth's own endpoints (lib/http/account-routes.ts serves only some).
const ACCOUNTS_OPEN_PATHS = new Set(["/sign-in", "/sign-up", "/api/health"]);
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

function jsonError(status: number, code: string, message: string): NextResponse {
  return NextResponse.json({ error: { code, message } }, { status });
}

function crossSite(): NextResponse {
  return jsonError(403, "forbidden", "Cross-site requests are not allowed.");
}

function unauthorized(): NextResponse {
  const how =
    authMode() === "accounts" ? "POST /api/auth/sign-in/email" : "send Authorization: Bearer <HINTLINE_AUTH_TOKEN>";
  return jsonError(401, "unauthorized", `Sign in first: ${how}.`);
}

function tooManyGuesses(wait: number): NextResponse {
  const response = jsonError(
    429,
    "too_many_requests",
    `Too many wrong tokens or sign-ins from this address; try again in ${wait} s.`,
  );
  response.headers.set("retry-after", String(wait));
  return response;
}

function badPath(path: string, message: string): NextResponse {
  if (path.startsWith("/api/")) return jsonError(400, "bad_request", message);
  return new NextResponse(message, { status: 400, headers: { "content-type": "text/plain; charset=utf-8" } });
}

function decodable(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/** A URL on the Host the browser used (behind `next start`, request.url always says localhost). */
function pageUrl(request: NextRequest, path: string): URL {
  const protocol = request.headers.get("x-forwarded-proto") ?? request.nextUrl.protocol.replace(":", "");
  return new URL(path, `${protocol}://${request.headers.get("host")}`);
}

/**
 * A page's Content-Security-Policy: scripts only from this server (Next.js puts the nonce on its inline ones), images
 * only from this server, data: or blob: (a remote image in a reply waits for a click: components/chat/markdown-image.tsx),
 * connections only to this server, and no framing by any page. Inline styles stay allowed (React's style attributes).
 */
function contentSecurityPolicy(nonce: string): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'${process.env.NODE_ENV === "development" ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Lets the request through; a page gets its policy and frame protection (an API answer is JSON or a stream). */
function pass(request: NextRequest): NextResponse {
  if (request.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))));
  const policy = contentSecurityPolicy(nonce);
  // Next.js reads the nonce for its own inline scripts from the request's policy header.
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", policy);
  response.headers.set("x-frame-options", "DENY");
  return response;
}

async function validSession(request: NextRequest, token: string): Promise<boolean> {
  const cookie = request.cookies.get(SESSION_COOKIE)?.value;
  if (!cookie) return false;
  const session = await verifySessionValue(token, cookie);
  return session !== null && !(await isSessionRevoked(session.id));
}

function toSignIn(request: NextRequest, path: string): NextResponse {
  const signIn = pageUrl(request, "/sign-in");
  signIn.searchParams.set("next", path);
  return NextResponse.redirect(signIn);
}

/**
 * Accounts mode: an API request without a session cookie is refused here (route() checks the session itself, and
 * whose data it asks for); a page is shown only to a signed-in user, others go to the sign-in page.
 */
async function accountsGate(request: NextRequest, path: string): Promise<NextResponse> {
  if (ACCOUNTS_OPEN_PATHS.has(path) || path.startsWith("/api/auth/")) return pass(request);
  if (path.startsWith("/api/")) return hasAccountsCookie(request) ? pass(request) : unauthorized();
  if (await viewerOrNull(request)) return pass(request);
  return toSignIn(request, path);
}

export async function proxy(request: NextRequest) {
  const host = request.headers.get("host");
  // DNS rebinding: another site's page whose name now resolves to this machine is served under its own Host.
  if (!allowedHost(host)) {
    return jsonError(
      421,
      "host_not_allowed",
      `This server does not answer to the host ${JSON.stringify((host ?? "").slice(0, 100))}; add it to HINTLINE_ALLOWED_HOSTS to allow it.`,
    );
  }
  const path = request.nextUrl.pathname;
  // Next.js answers a path with broken percent-encoding (e.g. "/api/conversations/%E0%A4") with a bare 500.
  if (!decodable(path)) return badPath(path, "The URL path is not valid percent-encoding.");
  // API routes never redirect: a client following one would repeat its DELETE elsewhere. Next.js has already resolved
  // "." and ".." segments (also "%2e%2e"), so ".../tasks/%2e%2e" arrives as the conversation's path plus a slash.
  if (path.startsWith("/api/") && (path.endsWith("/") || path.includes("//"))) {
    return badPath(
      path,
      'The URL path must not end with a slash, or contain an empty, "." or ".." segment (API routes never redirect).',
    );
  }
  if (path.length > 1 && path.endsWith("/")) {
    // next.config.mjs turns off Next.js's own trailing-slash redirect (it also applied to the API): pages keep it.
    const url = pageUrl(request, path.replace(/\/+$/, "") || "/");
    url.search = request.nextUrl.search;
    return NextResponse.redirect(url, 308);
  }
  // Another site's page can make the browser send a write (a form post) with or without a session: a write that a
  // browser marks as coming from another origin is refused whether or not a token is configured.
  if (UNSAFE_METHODS.has(request.method) && !sameOrigin(request)) return crossSite();
  if (authMode() === "accounts") return accountsGate(request, path);
  const token = authToken();
  if (!token) return pass(request);
  if (OPEN_PATHS.has(path)) return pass(request);

  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(.+)$/i)?.[1];
  if (bearer) {
    // A wrong bearer token counts as a failed sign-in. Once an address has failed too often its tokens are not even
    // compared: were a right one let through, the answer would tell the guesser it was right.
    const address = clientAddress(request);
    const wait = await signInRetryAfter(address);
    if (wait > 0) return tooManyGuesses(wait);
    if (safeEqual(bearer, token)) return pass(request);
    await recordSignInFailure(address);
  }

  // The cookie is SameSite=Strict, and a cross-origin write carrying one was refused above.
  if (await validSession(request, token)) return pass(request);
  if (path.startsWith("/api/")) return unauthorized();
  return toSignIn(request, path);
}

export const config = {
  matcher: ["/((?!_next/static|_next/image|favicon.ico|icon.svg).*)"],
};
