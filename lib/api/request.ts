// Reading and validating request bodies: size-limited, JSON-parsed, schema-checked, each failure a typed 4xx.
import type { z } from "zod";
import { ApiError, errorResponse } from "./errors.ts";

export const MAX_CHAT_BODY_BYTES = 100 * 1024;
export const MAX_JSON_BODY_BYTES = 256 * 1024;
export const MAX_IMPORT_BODY_BYTES = 10 * 1024 * 1024;

export async function readJson(request: Request, { maxBytes = MAX_JSON_BODY_BYTES } = {}): Promise<unknown> {
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw new ApiError("payload_too_large", `The request body is over the ${maxBytes}-byte limit.`);
  const buffer = await request.arrayBuffer();
  if (buffer.byteLength > maxBytes) throw new ApiError("payload_too_large", `The request body is over the ${maxBytes}-byte limit.`);
  if (buffer.byteLength === 0) throw new ApiError("invalid_json", "The request body is empty; send a JSON object.");
  try {
    return JSON.parse(new TextDecoder().decode(buffer));
  } catch {
    throw new ApiError("invalid_json", "The request body is not valid JSON.");
  }
}

/** Validates `value`; `name` is what the value is called in error messages when the problem is the value itself. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, name = "body"): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = issue.path.length ? issue.path.join(".") : name;
  const detail = issue.code === "unrecognized_keys" ? `has unknown field(s) ${issue.keys.join(", ")}` : issue.message;
  throw new ApiError("bad_request", `Invalid ${field}: ${detail}.`, issue.path.length ? field : undefined);
}

type RouteContext<P> = { params: Promise<P> };

/** Wraps a route handler so every thrown error becomes the API's JSON error shape. */
export function route<P = Record<string, never>>(
  handler: (request: Request, params: P) => Promise<Response>,
): (request: Request, context: RouteContext<P>) => Promise<Response> {
  return async (request, context) => {
    try {
      return await handler(request, await context.params);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
