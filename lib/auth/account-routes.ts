// The accounts-mode endpoints under /api/auth, by better-auth, with what Hintline adds around them: only the
// endpoints the product uses are served; the first account becomes the admin and takes the data of open or token
// mode; later sign-ups need an admin's invitation (unless HINTLINE_OPEN_SIGNUP=1); wrong passwords are slowed per
// account and per address; a disabled account cannot sign in.
import { z } from "zod";
import { ApiError, errorResponse } from "../api/errors.ts";
import { parseWith, readJson } from "../api/request.ts";
import { claimSetting, countUsers, findUserByEmail, giveBackInvitation, makeFirstAdmin, markInvitationUsed, releaseSetting, takeInvitation } from "../db/accounts.ts";
import { log } from "../ops/logger.ts";
import { accountsAuth } from "./accounts.ts";
import { authMode, openSignUp } from "./mode.ts";
import { clientAddress, recordSignInFailure, recordSignInSuccess, signInRetryAfter } from "./sign-in-limit.ts";

const email = z.string().trim().toLowerCase().email("Give a valid email address.").max(254);
const signUpSchema = z.object({
  email,
  password: z.string().min(1, "Give a password.").max(256),
  name: z.string().trim().min(1, "Give your name.").max(100),
  invitation: z.string().max(200).optional(),
});
const signInSchema = z.object({ email, password: z.string().min(1, "Give a password.").max(256), rememberMe: z.boolean().optional() });

const FIRST_ADMIN = "first-admin";

/** The same request with a new JSON body (better-auth reads the body; ours was read already). */
function withBody(request: Request, body: object): Request {
  const headers = new Headers(request.headers);
  headers.delete("content-length");
  headers.set("content-type", "application/json");
  return new Request(request.url, { method: "POST", headers, body: JSON.stringify(body) });
}

async function forward(request: Request): Promise<Response> {
  return (await accountsAuth(request)).handler(request);
}

async function userIdOf(response: Response): Promise<string | undefined> {
  try {
    const body = (await response.clone().json()) as { user?: { id?: unknown } };
    return typeof body.user?.id === "string" ? body.user.id : undefined;
  } catch {
    return undefined;
  }
}

async function signUp(request: Request): Promise<Response> {
  const input = parseWith(signUpSchema, await readJson(request));
  const first = (await countUsers()) === 0 && (await claimSetting({ key: FIRST_ADMIN, value: input.email }));
  let invitationId: string | null = null;
  if (!first && !openSignUp()) {
    invitationId = input.invitation ? await takeInvitation({ token: input.invitation }) : null;
    if (!invitationId) {
      throw new ApiError("forbidden", input.invitation ? "This invitation link is not valid (used, expired or unknown); ask an admin for a new one." : "Signing up needs an invitation link from an admin.", "invitation");
    }
  }
  const response = await forward(withBody(request, { email: input.email, password: input.password, name: input.name }));
  const userId = response.ok ? await userIdOf(response) : undefined;
  if (!userId) {
    if (first) await releaseSetting({ key: FIRST_ADMIN, value: input.email });
    if (invitationId) await giveBackInvitation({ id: invitationId });
    return response;
  }
  if (first) await makeFirstAdmin({ userId });
  if (invitationId) await markInvitationUsed({ id: invitationId, userId });
  log().info({ event: "account_created", userId, admin: first }, "account created");
  return response;
}

function tooMany(wait: number): Response {
  const response = errorResponse(new ApiError("too_many_requests", `Too many failed sign-in attempts; try again in ${wait} s.`));
  response.headers.set("retry-after", String(wait));
  return response;
}

async function signIn(request: Request): Promise<Response> {
  const input = parseWith(signInSchema, await readJson(request));
  const address = clientAddress(request);
  const account = `account:${input.email}`;
  const wait = Math.max(signInRetryAfter(address), signInRetryAfter(account));
  if (wait > 0) return tooMany(wait);
  const user = await findUserByEmail({ email: input.email });
  if (user?.disabled) throw new ApiError("forbidden", "This account is disabled; ask an admin.");
  const response = await forward(withBody(request, input));
  if (response.status === 401) {
    recordSignInFailure(address);
    recordSignInFailure(account, Date.now(), { countTotal: false });
  } else if (response.ok) {
    recordSignInSuccess(address);
    recordSignInSuccess(account);
  }
  return response;
}

const ENDPOINTS: Record<string, { method: string; handle: (request: Request) => Promise<Response> }> = {
  "sign-up/email": { method: "POST", handle: signUp },
  "sign-in/email": { method: "POST", handle: signIn },
  // better-auth answers a POST without a JSON Content-Type with 415; a sign-out (a button's fetch, a form) has no body.
  "sign-out": { method: "POST", handle: (request) => forward(withBody(request, {})) },
  "get-session": { method: "GET", handle: forward },
};

/** Serves /api/auth/<path> in accounts mode; 404 in the other modes and for every endpoint not listed above. */
export async function handleAccountsRequest(request: Request, path: string): Promise<Response> {
  try {
    const endpoint = authMode() === "accounts" ? ENDPOINTS[path] : undefined;
    if (!endpoint) throw new ApiError("not_found", `No such route: /api/auth/${path.slice(0, 100)}.`);
    if (request.method !== endpoint.method) throw new ApiError("method_not_allowed", `Method ${request.method} is not allowed here; this route accepts ${endpoint.method}.`);
    return await endpoint.handle(request);
  } catch (error) {
    return errorResponse(error);
  }
}
