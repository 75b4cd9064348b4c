// A small fetch wrapper for the app's JSON API: throws the server's error message on failure, and says in words when
// the server could not be reached at all (the browser's own "Failed to fetch" tells a person nothing).
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string;
  readonly field?: string;
  constructor(status: number, code: string, message: string, field?: string) {
    super(message);
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

const UNREACHABLE = "Can't reach the server";

/**
 * Accounts mode (app/layout.tsx marks the page with data-auth-mode): a request refused for want of a live session
 * (signed out elsewhere, or disabled by an admin) sends the tab to the sign-in page, which brings the person back here.
 */
export function signInOnUnauthorized(status: number): void {
  if (status !== 401 || typeof document === "undefined" || document.documentElement.dataset.authMode !== "accounts") return;
  const { pathname, search } = window.location;
  if (pathname === "/sign-in" || pathname === "/sign-up") return;
  window.location.assign(`/sign-in?next=${encodeURIComponent(`${pathname}${search}`)}`);
}

/** fetch, with accounts mode's sign-in on a 401 (for callers that read the response themselves, e.g. the chat). */
export async function fetchSigningIn(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const response = await fetch(input, init);
  signInOnUnauthorized(response.status);
  return response;
}
const TRY_LATER = "try again when it is back.";

export async function apiFetch<T = unknown>(url: string, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers: { ...(init.body ? { "content-type": "application/json" } : {}), ...init.headers },
    });
  } catch (error) {
    if ((error as Error)?.name === "AbortError") throw error;
    throw new ApiRequestError(0, "unreachable", `${UNREACHABLE} — ${TRY_LATER}`);
  }
  signInOnUnauthorized(response.status);
  if (response.status === 204) return undefined as T;
  // A request aborted while its body is read (the search box asks again on every pause) is an abort, not a null body.
  const body = (await response.json().catch((error) => {
    if ((error as Error)?.name === "AbortError") throw error;
    return null;
  })) as { error?: { code: string; message: string; field?: string } } | null;
  if (!response.ok) {
    const e = body?.error;
    const fallback = response.status >= 500 ? `The server failed (HTTP ${response.status}) — ${TRY_LATER}` : `The server refused the request (HTTP ${response.status}).`;
    throw new ApiRequestError(response.status, e?.code ?? "error", e?.message ?? fallback, e?.field);
  }
  return body as T;
}

/**
 * What to tell the person when a request failed, in words. `kept` names what they typed and still have (it stays in
 * its box), e.g. "task": "Can't reach the server — your task is kept; try again when it is back."
 */
export function failureText(error: unknown, { kept }: { kept?: string } = {}): string {
  if (error instanceof ApiRequestError) {
    if (error.code === "unreachable") return `${UNREACHABLE} — ${kept ? `your ${kept} is kept; ` : ""}${TRY_LATER}`;
    return error.message;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `Something went wrong: ${message}`;
}
