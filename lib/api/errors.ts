// Typed API errors: every failure the HTTP API reports has a code, a status and a person-readable message.
import { DISK_FULL_MESSAGE, isDiskFull } from "../agent/disk-full.ts";
import { log } from "../log/logger.ts";
import { wordsFor } from "../operator-words.ts";

/** Seconds a client is told to wait before it tries again (another instance, or this one restarted). */
export const RETRY_AFTER_SECONDS = 5;

export type ErrorCode =
  | "bad_request"
  | "invalid_json"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "unauthorized"
  | "forbidden"
  | "too_many_requests"
  | "budget_exceeded"
  | "disk_full"
  | "provider_error"
  | "unavailable"
  | "internal_error";

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_json: 400,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  unauthorized: 401,
  forbidden: 403,
  too_many_requests: 429,
  // Accounts mode: the person's budget is used up until the time the message names (and Retry-After counts down to).
  budget_exceeded: 429,
  // 507 Insufficient Storage: the database could not write (SQLITE_FULL, PostgreSQL disk_full, ENOSPC).
  disk_full: 507,
  provider_error: 502,
  // The instance is shutting down: the client tries again (another instance, or this one restarted).
  unavailable: 503,
  internal_error: 500,
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** The request field at fault, when one is (e.g. "settings.injection.timezone"). */
  readonly field?: string;
  /** Seconds the client should wait before trying again (Retry-After), when the error knows. */
  readonly retryAfterSeconds?: number;
  constructor(code: ErrorCode, message: string, field?: string, options: { retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = STATUS[code];
    this.field = field;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

/**
 * The API's JSON error. `operator`: the reader runs the server (open or token mode, or an admin), and reads the
 * operator's words in the message (lib/operator-words.ts); anyone else reads who can fix it.
 */
export function errorResponse(error: unknown, { operator = false }: { operator?: boolean } = {}): Response {
  if (error instanceof ApiError) {
    const message = wordsFor(error.message, operator);
    const body = { code: error.code, message, ...(error.field ? { field: error.field } : {}) };
    const retryAfter = error.code === "unavailable" ? RETRY_AFTER_SECONDS : error.retryAfterSeconds;
    const headers = retryAfter === undefined ? undefined : { "retry-after": String(retryAfter) };
    return Response.json({ error: body }, { status: error.status, headers });
  }
  if (isDiskFull(error)) {
    log().error({ err: error }, "the disk is full");
    return errorResponse(new ApiError("disk_full", DISK_FULL_MESSAGE));
  }
  log().error({ err: error }, "unexpected error");
  return Response.json(
    { error: { code: "internal_error", message: "Something went wrong on the server. Please try again." } },
    { status: 500 },
  );
}
