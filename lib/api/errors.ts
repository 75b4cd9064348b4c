// Typed API errors: every failure the HTTP API reports has a code, a status and a person-readable message.
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
  | "provider_error"
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
  provider_error: 502,
  internal_error: 500,
};

export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  /** The request field at fault, when one is (e.g. "settings.injection.timezone"). */
  readonly field?: string;
  constructor(code: ErrorCode, message: string, field?: string) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = STATUS[code];
    this.field = field;
  }
}

export function errorResponse(error: unknown): Response {
  if (error instanceof ApiError) {
    const body = { code: error.code, message: error.message, ...(error.field ? { field: error.field } : {}) };
    return Response.json({ error: body }, { status: error.status });
  }
  console.error("[hintline] unexpected error", error);
  return Response.json(
    { error: { code: "internal_error", message: "Something went wrong on the server. Please try again." } },
    { status: 500 },
  );
}
