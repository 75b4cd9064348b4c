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
  if (status !== 401 || typeof document === "undefined" || document.documentElement.dataset.authMode !== "accounts")
    return;
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
  const body = await readBody(response);
  if (!response.ok) {
    const e = (body as ErrorBody | undefined)?.error;
    const fallback =
      response.status >= 500
        ? `The server failed (HTTP ${response.status}) — ${TRY_LATER}`
        : `The server refused the request (HTTP ${response.status}).`;
    throw new ApiRequestError(response.status, e?.code ?? "error", e?.message ?? fallback, e?.field);
  }
  if (body === UNREADABLE)
    throw new ApiRequestError(
      response.status,
      "bad_response",
      `The server's answer could not be read (HTTP ${response.status}) — ${TRY_LATER}`,
    );
  return body as T;
}

type ErrorBody = { error?: { code: string; message: string; field?: string } };
const UNREADABLE = Symbol("unreadable");

/**
 * The parsed body; undefined when there is none; UNREADABLE when it is not JSON. A body cut off by a connection lost
 * while it was read (a server restarted mid-answer) is "unreachable", as a failed fetch is: returning it as null data
 * would hand a store `null` for its list. A request aborted while its body is read (the search box asks again on every
 * pause) stays an abort.
 */
async function readBody(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (error) {
    if ((error as Error)?.name === "AbortError") throw error;
    throw new ApiRequestError(0, "unreachable", `${UNREACHABLE} — ${TRY_LATER}`);
  }
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return UNREADABLE;
  }
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
