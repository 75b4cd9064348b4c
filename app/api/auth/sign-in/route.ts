import { ApiError, errorResponse } from "@/lib/api/errors";
import { otherMethodsNotAllowed, parseWith, readBody, readJson } from "@/lib/http/request";
import { signInSchema } from "@/lib/api/schemas";
import {
  authToken,
  newSessionValue,
  SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
  safeEqual,
  safeNextPath,
  viaHttps,
} from "@/lib/auth/token";
import { clientAddress, recordSignInFailure, recordSignInSuccess, signInRetryAfter } from "@/lib/auth/sign-in-limit";

export const dynamic = "force-dynamic";

// Accepts the sign-in form (urlencoded, redirects) or JSON `{ token }` (answers JSON).
export async function POST(request: Request) {
  const expected = authToken();
  const isForm = (request.headers.get("content-type") ?? "").includes("application/x-www-form-urlencoded");
  const address = clientAddress(request);
  const wait = expected ? await signInRetryAfter(address) : 0;
  if (wait > 0) {
    const response = errorResponse(
      new ApiError("too_many_requests", `Too many failed sign-in attempts; try again in ${wait} s.`),
    );
    response.headers.set("retry-after", String(wait));
    return response;
  }
  let token = "";
  let next = "/";
  try {
    if (isForm) {
      const form = new URLSearchParams(await readBody(request));
      token = form.get("token") ?? "";
      next = safeNextPath(form.get("next"));
    } else {
      token = parseWith(signInSchema, await readJson(request)).token;
    }
  } catch (error) {
    return errorResponse(error);
  }
  const ok = !expected || (token.length > 0 && safeEqual(token, expected));
  if (!ok) {
    await recordSignInFailure(address);
    if (isForm)
      return new Response(null, {
        status: 303,
        headers: { location: `/sign-in?error=1&next=${encodeURIComponent(next)}` },
      });
    return errorResponse(new ApiError("unauthorized", "That token is not right."));
  }
  await recordSignInSuccess(address);
  const cookie = expected
    ? `${SESSION_COOKIE}=${(await newSessionValue(expected)).value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${SESSION_MAX_AGE_SECONDS}${viaHttps(request) ? "; Secure" : ""}`
    : undefined;
  const headers = new Headers(cookie ? { "set-cookie": cookie } : {});
  if (isForm) {
    // Relative, so the browser stays on the host it signed in on (and keeps the cookie).
    headers.set("location", next);
    return new Response(null, { status: 303, headers });
  }
  headers.set("content-type", "application/json");
  return new Response(JSON.stringify({ ok: true }), { status: 200, headers });
}

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("POST");
