// A text file sent as the request body (knowledge uploads): text/plain or text/markdown, UTF-8, size-limited.
import { ApiError } from "./errors.ts";
import { readBody } from "./request.ts";

const TEXT_TYPES = ["text/plain", "text/markdown"];

/** The body as text; 415 for another type or charset, 413 naming `limitName` over `maxBytes`, 400 for binary. */
export async function readTextBody(request: Request, { maxBytes, limitName }: { maxBytes: number; limitName: string }): Promise<string> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (!type || !TEXT_TYPES.includes(type)) {
    const got = type ? `Content-Type ${type.slice(0, 100)}` : "no Content-Type";
    throw new ApiError("unsupported_media_type", `Send the file as text/plain or text/markdown in UTF-8 (got ${got}).`);
  }
  let text: string;
  try {
    text = await readBody(request, { maxBytes });
  } catch (error) {
    if (error instanceof ApiError && error.code === "payload_too_large") throw new ApiError("payload_too_large", `${limitName} (the file sent is larger).`);
    if (error instanceof ApiError && error.code === "bad_request") throw new ApiError("bad_request", "The file is not UTF-8 text (binary files are refused).");
    throw error;
  }
  if (text.includes("\u0000")) throw new ApiError("bad_request", "The file holds NUL bytes: it is binary, not text (binary files are refused).");
  return text;
}
