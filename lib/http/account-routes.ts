// The accounts-mode endpoints under /api/auth, by better-auth, with what Hintline adds around them: only the
// endpoints the product uses are served; the first account becomes the admin and takes the data of open or token
// mode; later sign-ups need an admin's invitation (unless HINTLINE_OPEN_SIGNUP=1); wrong passwords are slowed per
// address and account (lib/auth/sign-in-limit.ts); a disabled account cannot sign in.
import { z } from "zod";
import { ApiError, errorResponse } from "../api/errors.ts";
import { accountsAuth, requestOrigin } from "../auth/accounts.ts";
import { authMode, openSignUp } from "../auth/mode.ts";
import { FIRST_ADMIN, OIDC_PROVIDER, oidcSettings } from "../auth/oidc.ts";
import { OIDC_NOT_CONFIGURED } from "../auth/oidc-errors.ts";
import {
  clientAddress,
  recordSignInFailure,
  recordSignInSuccess,
  type SignInHold,
  signInHold,
} from "../auth/sign-in-limit.ts";
import {
  claimSetting,
  countUsers,
  giveBackInvitation,
  makeFirstAdmin,
  markInvitationUsed,
  releaseSetting,
  takeInvitation,
} from "../db/accounts.ts";
import { log } from "../log/logger.ts";
import { parseWith, readJson } from "./request.ts";

const email = z.string().trim().toLowerCase().email("Give a valid email address.").max(254);
const signUpSchema = z.object({
  email,
  password: z.string().min(1, "Give a password.").max(256),
  name: z.string().trim().min(1, "Give your name.").max(100),
  invitation: z.string().max(200).optional(),
});
const signInSchema = z.object({
  email,
  password: z.string().min(1, "Give a password.").max(256),
  rememberMe: z.boolean().optional(),
});

/** The same request with a new JSON body (better-auth reads the body; ours was read already). */
function withBody(request: Request, body: object): Request {
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  return new Request(request.url, { method: "POST", headers, body: JSON.stringify(body) });
}

/** better-auth's answer; its errors (`{ code, message }`) in the API's shape: `{ error: { code, message } }`, same status. */
async function forward(request: Request): Promise<Response> {
  const response = await (await accountsAuth(request)).handler(request);
  if (response.status < 400) return response;
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown; message?: unknown; error?: unknown } | null;
  if (!body || typeof body !== "object" || "error" in body) return response;
  const code = typeof body.code === "string" && body.code ? body.code.toLowerCase() : `http_${response.status}`;
  const message = typeof body.message === "string" && body.message ? body.message : "The request was refused.";
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify({ error: { code, message } }), { status: response.status, headers });
}

async function userIdOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { user?: { id?: unknown } };
    return typeof body.user?.id === "string" ? body.user.id : undefined;
  } catch {
    return undefined;
  }
}

/** better-auth answered with the user as it was created; the first account was made the admin after. */
async function withAdminRole(response: Response): Promise<Response> {
  const body = (await response.clone().json()) as { user: Record<string, unknown> };
  const headers = new Headers(response.headers);
  headers.delete("content-length");
  return new Response(JSON.stringify({ ...body, user: { ...body.user, role: "admin" } }), {
    status: response.status,
    headers,
  });
}

async function signUp(request: Request): Promise<Response> {
  const input = parseWith(signUpSchema, await readJson(request));
  const first = (await countUsers()) === 0 && (await claimSetting({ key: FIRST_ADMIN, value: input.email }));
  let invitationId: string | null = null;
  if (!first && !openSignUp()) {
    invitationId = input.invitation ? await takeInvitation({ token: input.invitation }) : null;
    if (!invitationId) {
      throw new ApiError(
        "forbidden",
        input.invitation
          ? "This invitation link is not valid (used, expired or unknown); ask an admin for a new one."
          : "Signing up needs an invitation link from an admin.",
        "invitation",
      );
    }
  }
  let response = await forward(withBody(request, { email: input.email, password: input.password, name: input.name }));
  const userId = response.ok ? await userIdOf(response) : undefined;
  if (!userId) {
    if (first) await releaseSetting({ key: FIRST_ADMIN, value: input.email });
    if (invitationId) await giveBackInvitation({ id: invitationId });
    return response;
  }
  if (first) {
    await makeFirstAdmin({ userId });
    response = await withAdminRole(response);
  }
  if (invitationId) await markInvitationUsed({ id: invitationId, userId });
  log().info({ event: "account_created", userId, admin: first }, "account created");
  return response;
}

function tooMany({ seconds, limit }: SignInHold): Response {
  const where = limit === "address" ? "from your address" : "on this server in the last minute (from many addresses)";
  const response = errorResponse(
    new ApiError("too_many_requests", `Too many failed sign-in attempts ${where}; try again in ${seconds} s.`),
  );
  response.headers.set("retry-after", String(seconds));
  return response;
}

async function signIn(request: Request): Promise<Response> {
  const input = parseWith(signInSchema, await readJson(request));
  const address = clientAddress(request);
  // Counted per address and account, never per account from everywhere: others' guesses lock no one else out.
  const hold = await signInHold(address, input.email);
  if (hold) return tooMany(hold);
  // A disabled account is refused (403) only after its password was right (lib/auth/oidc.ts's session hook): a wrong
  // password says nothing about whether the account is disabled.
  const response = await forward(withBody(request, input));
  if (response.status === 401) await recordSignInFailure(address, input.email);
  else if (response.ok) await recordSignInSuccess(address, input.email);
  return response;
}

/**
 * OIDC's start, a link a page can hold: asks better-auth's sign-in/social for the issuer's authorize URL (it stores the
 * state and sets the state cookie) and redirects there. `?invitation=<token>` rides in the state for a first sign-in.
 */
async function startOidc(request: Request): Promise<Response> {
  if (!oidcSettings()) throw new ApiError("not_found", OIDC_NOT_CONFIGURED);
  const invitation = new URL(request.url).searchParams.get("invitation")?.slice(0, 200);
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  headers.set("origin", requestOrigin(request));
  const body = {
    provider: OIDC_PROVIDER,
    callbackURL: "/",
    newUserCallbackURL: "/",
    errorCallbackURL: "/sign-in",
    disableRedirect: true,
    ...(invitation ? { additionalData: { invitation } } : {}),
  };
  const started = await forward(
    new Request(new URL("/api/auth/sign-in/social", request.url), {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
  );
  const { url } = ((await started.json().catch(() => ({}))) ?? {}) as { url?: unknown };
  if (!started.ok || typeof url !== "string") {
    log().warn({ event: "oidc_start_failed", status: started.status }, "OpenID Connect sign-in could not start");
    return new Response(null, { status: 303, headers: { location: "/sign-in?error=oidc_unavailable" } });
  }
  const response = new Response(null, { status: 302, headers: { location: url, "cache-control": "no-store" } });
  for (const cookie of started.headers.getSetCookie()) response.headers.append("set-cookie", cookie);
  return response;
}

/**
 * The issuer's redirect back. On success better-auth sets the session cookie and redirects to "/"; that redirect would
 * still count as the issuer's (cross-site) navigation, so a browser would not send the SameSite=Strict cookie with
 * it. A page that moves on by itself starts a same-site navigation instead.
 */
async function oidcCallback(request: Request): Promise<Response> {
  if (!oidcSettings()) throw new ApiError("not_found", OIDC_NOT_CONFIGURED);
  const response = await forward(request);
  const location = response.headers.get("location");
  const origin = requestOrigin(request);
  const signedIn = response.headers
    .getSetCookie()
    .some((cookie) => /^(__Secure-)?[^=]+\.session_token=[^;]/.test(cookie));
  if (response.status !== 302 || !location || !signedIn) return response;
  const target = new URL(location, origin);
  const path = target.origin === origin ? `${target.pathname}${target.search}` : "/";
  const escaped = path.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");
  const page = `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${escaped}"><title>Signed in</title><p>Signed in. <a href="${escaped}">Continue</a></p>`;
  const headers = new Headers({
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "content-security-policy": "default-src 'none'",
    "x-frame-options": "DENY",
  });
  for (const cookie of response.headers.getSetCookie()) headers.append("set-cookie", cookie);
  return new Response(page, { status: 200, headers });
}

const ENDPOINTS: Record<string, { method: string; handle: (request: Request) => Promise<Response> }> = {
  "sign-up/email": { method: "POST", handle: signUp },
  "sign-in/email": { method: "POST", handle: signIn },
  // better-auth answers a POST without a JSON Content-Type with 415; a sign-out (a button's fetch, a form) has no body.
  "sign-out": { method: "POST", handle: (request) => forward(withBody(request, {})) },
  "get-session": { method: "GET", handle: forward },
  "sign-in/oidc": { method: "GET", handle: startOidc },
  [`callback/${OIDC_PROVIDER}`]: { method: "GET", handle: oidcCallback },
};

/** Serves /api/auth/<path> in accounts mode; 404 in the other modes and for every endpoint not listed above. */
export async function handleAccountsRequest(request: Request, path: string): Promise<Response> {
  try {
    const endpoint = authMode() === "accounts" ? ENDPOINTS[path] : undefined;
    if (!endpoint) throw new ApiError("not_found", `No such route: /api/auth/${path.slice(0, 100)}.`);
    if (request.method !== endpoint.method)
      throw new ApiError(
        "method_not_allowed",
        `Method ${request.method} is not allowed here; this route accepts ${endpoint.method}.`,
      );
    return await endpoint.handle(request);
  } catch (error) {
    return errorResponse(error);
  }
}
