// Reading and validating request bodies: size-limited, JSON-parsed, schema-checked, each failure a typed 4xx.
import type { z } from "zod";
import { ApiError, errorResponse } from "../api/errors.ts";
import { gateRoute } from "../auth/scope.ts";
import { isAdmin, ownerFilter, type Viewer, viewerOf } from "../auth/viewer.ts";
import { connectionsReady } from "../chat/connection-sync.ts";
import { publishChangesOf } from "../chat/live/change-events.ts";
import { issueInWords } from "../issue-words.ts";
import { nulPath, wellFormed } from "../nul.ts";
import { logRequest, requestIdOf } from "../ops/request-log.ts";

export const MAX_JSON_BODY_BYTES = 256 * 1024;
/** A JSON body longer than this is parsed, checked and handed on with turns of the event loop in between. */
const LARGE_BODY_CHARS = 1024 * 1024;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
/** Deeper JSON than this is refused before it is parsed (nothing Hintline stores nests nearly as deep). */
export const MAX_JSON_DEPTH = 100;

/** The charset a Content-Type names, lower-case, if it names one. */
function declaredCharset(request: Request): string | undefined {
  const match = /;\s*charset\s*=\s*"?([^";\s]*)"?/i.exec(request.headers.get("content-type") ?? "");
  return match ? match[1]!.toLowerCase() : undefined;
}

type BodyLimit = {
  maxBytes?: number /** The 413's message, naming what the limit is made of (else its bytes). */;
  tooLarge?: string;
};

/**
 * The raw body, refused with a 413 once it is over `maxBytes` (by its declared length or by what arrives). Only UTF-8
 * is read: another declared charset is refused (415), and so are bytes that are not UTF-8 (400), rather than stored
 * as replacement characters.
 */
export async function readBody(
  request: Request,
  { maxBytes = MAX_JSON_BODY_BYTES, tooLarge }: BodyLimit = {},
): Promise<string> {
  const charset = declaredCharset(request);
  if (charset !== undefined && charset !== "utf-8" && charset !== "utf8") {
    throw new ApiError(
      "unsupported_media_type",
      `The request body must be UTF-8 (got charset=${charset.slice(0, 40)}).`,
    );
  }
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes)
    throw new ApiError("payload_too_large", tooLarge ?? `The request body is over the ${maxBytes}-byte limit.`);
  const buffer = await readLimited(request, maxBytes, tooLarge);
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(buffer);
  } catch {
    throw new ApiError("bad_request", "The request body is not valid UTF-8.");
  }
}

/** The raw body's bytes (a binary upload), refused with a 413 once it is over `maxBytes`. */
export async function readBytes(request: Request, { maxBytes }: { maxBytes: number }): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes)
    throw new ApiError("payload_too_large", `The request body is over the ${maxBytes}-byte limit.`);
  return readLimited(request, maxBytes);
}

/**
 * The body's bytes, counted as they arrive: a body sent without Content-Length (chunked) is refused as soon as it
 * passes `maxBytes`, never read whole into memory first.
 */
async function readLimited(request: Request, maxBytes: number, tooLarge?: string): Promise<Uint8Array> {
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ApiError("payload_too_large", tooLarge ?? `The request body is over the ${maxBytes}-byte limit.`);
    }
    chunks.push(value);
  }
  const buffer = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    buffer.set(chunk, at);
    at += chunk.byteLength;
  }
  return buffer;
}

/**
 * The deepest nesting of arrays and objects in a JSON text (strings skipped), stopping once it is over `limit`. A
 * string is skipped to its closing quote with indexOf: walked a character at a time, the 33 MB of three images' base64
 * took 315 ms.
 */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      i = closingQuote(text, i);
      if (i < 0) return deepest;
    } else if (c === 123 || c === 91) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (c === 125 || c === 93) depth--;
  }
  return deepest;
}

/** A JSON escape that may spell a lone surrogate (any `\uD800`–`\uDFFF`; a pair is checked when parsed). */
const LONE_SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/;

/** Where the string opened at `open` ends: the next quote not escaped (after an even run of backslashes); -1 if none. */
function closingQuote(text: string, open: number): number {
  let at = open;
  for (;;) {
    at = text.indexOf('"', at + 1);
    if (at < 0) return -1;
    let backslashes = 0;
    while (text.charCodeAt(at - 1 - backslashes) === 92) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
}

const JSON_CONTENT_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * A JSON body, only under a JSON Content-Type: a body an HTML form on another site can send (urlencoded, multipart,
 * text/plain) is refused before it is read.
 */
export async function readJson(request: Request, limit: BodyLimit = {}): Promise<unknown> {
  const type = request.headers.get("content-type")?.trim();
  if (!type || !JSON_CONTENT_TYPE.test(type)) {
    const got = type ? `Content-Type ${type.split(";")[0]!.slice(0, 100)}` : "no Content-Type";
    throw new ApiError(
      "unsupported_media_type",
      `The request body must be JSON sent with Content-Type: application/json (got ${got}).`,
    );
  }
  const text = await readBody(request, limit);
  if (text.length === 0) throw new ApiError("invalid_json", "The request body is empty; send a JSON object.");
  if (jsonDepth(text) > MAX_JSON_DEPTH) {
    throw new ApiError(
      "invalid_json",
      `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
    );
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
  // A large body's parse, its NUL check and the caller's validation each take tens of milliseconds (a 20,000-message
  // import): other requests get a turn between them.
  const large = text.length > LARGE_BODY_CHARS;
  if (large) await nextTurn();
  // PostgreSQL cannot store a NUL: refused here, the same on both databases, before anything is written.
  const nul = nulPath(value);
  if (nul !== null)
    throw new ApiError(
      "bad_request",
      `Invalid ${nul}: must not contain a NUL character (U+0000).`,
      nul === "body" ? undefined : nul,
    );
  if (large) await nextTurn();
  // A lone surrogate ("\ud83d" without its pair: a client cut a string inside an emoji) stands for no character and
  // fails PostgreSQL's jsonb (a 500): it becomes U+FFFD here, the same on both databases. The body was valid UTF-8, so
  // only an escape can spell one.
  return LONE_SURROGATE_ESCAPE.test(text) ? wellFormed(value) : value;
}

/** Validates `value`; `name` is what the value is called in error messages when the problem is the value itself. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, name = "body"): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join(".") : name;
  throw new ApiError("bad_request", `Invalid ${field}: ${issueInWords(issue)}.`, issue.path.length ? field : undefined);
}

type RouteContext<P> = { params: Promise<P> };

/**
 * Wraps a route handler so every thrown error becomes the API's JSON error shape (and a write tells open tabs), and
 * every request is logged with its id (returned as `x-request-id`).
 */
export function route<P = Record<string, never>>(
  handler: (request: Request, params: P, viewer: Viewer) => Promise<Response>,
): (request: Request, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(request);
    let response: Response;
    let viewer: Viewer | undefined;
    try {
      // Who asks, and whether the conversation or workspace the path names is theirs, before the handler runs.
      viewer = await viewerOf(request);
      const params = await gateRoute(viewer, request, await context.params);
      // Model ids naming a connection resolve from memory: the first reading of the connections is in (a failure is
      // the database's, reported by whatever the handler reads).
      await connectionsReady().catch(() => undefined);
      response = await handler(request, params, viewer);
      const id = (params as { id?: unknown } | null)?.id;
      publishChangesOf(request, response, {
        owner: ownerFilter(viewer),
        workspaceId: typeof id === "string" ? id : undefined,
      });
    } catch (error) {
      response = errorResponse(error, { operator: viewer !== undefined && isAdmin(viewer) });
    }
    return logRequest(request, response, requestId, startedAt);
  };
}

/** A route anyone may call, signed in or not (the health check): no viewer, no ownership check. */
export function publicRoute(handler: (request: Request) => Promise<Response>): (request: Request) => Promise<Response> {
  return async (request) => {
    const startedAt = performance.now();
    const requestId = requestIdOf(request);
    let response: Response;
    try {
      response = await handler(request);
    } catch (error) {
      response = errorResponse(error);
    }
    return logRequest(request, response, requestId, startedAt);
  };
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;
type Method = (typeof METHODS)[number];
type Handler = (request: Request) => Response;

/**
 * JSON 405 handlers for the methods a route does not serve (Next.js would answer them with an empty body), and the
 * OPTIONS answer listing the ones it does: `export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethodsNotAllowed("GET");`
 */
export function otherMethodsNotAllowed(...allowed: Method[]): Record<Method | "OPTIONS", Handler> {
  const allow = [...allowed, ...(allowed.includes("GET") ? ["HEAD"] : []), "OPTIONS"].join(", ");
  const notAllowed: Handler = (request) => {
    const response = errorResponse(
      new ApiError(
        "method_not_allowed",
        `Method ${request.method} is not allowed here; this route accepts ${allowed.join(", ")}.`,
      ),
    );
    response.headers.set("allow", allow);
    return response;
  };
  const options: Handler = () => new Response(null, { status: 204, headers: { allow } });
  return { ...Object.fromEntries(METHODS.map((method) => [method, notAllowed])), OPTIONS: options } as Record<
    Method | "OPTIONS",
    Handler
  >;
}
