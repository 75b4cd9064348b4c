// A text file sent as the request body (knowledge uploads): text/plain or text/markdown, UTF-8, size-limited.
import { formatBytes, pdfPagesText } from "../agent/attachments.ts";
import { ApiError } from "../api/errors.ts";
import { attachmentLimits } from "../chat/attachments.ts";
import { operatorNote } from "../operator-words.ts";
import { readPdfText } from "../chat/pdf-text.ts";
import { readBody, readBytes } from "./request.ts";

const TEXT_TYPES = ["text/plain", "text/markdown"];

/** The body as text; 415 for another type or charset, 413 naming `limitName` over `maxBytes`, 400 for binary. */
export async function readTextBody(
  request: Request,
  { maxBytes, limitName }: { maxBytes: number; limitName: string },
): Promise<string> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (!type || !TEXT_TYPES.includes(type)) {
    const got = type ? `Content-Type ${type.slice(0, 100)}` : "no Content-Type";
    throw new ApiError(
      "unsupported_media_type",
      `Send the file as text/plain or text/markdown in UTF-8, or as application/pdf (got ${got}).`,
    );
  }
  let text: string;
  try {
    text = await readBody(request, { maxBytes });
  } catch (error) {
    if (error instanceof ApiError && error.code === "payload_too_large")
      throw new ApiError("payload_too_large", `${limitName} (the file sent is larger).`);
    if (error instanceof ApiError && error.code === "bad_request")
      throw new ApiError("bad_request", "The file is not UTF-8 text (binary files are refused).");
    throw error;
  }
  if (text.includes("\u0000"))
    throw new ApiError("bad_request", "The file holds NUL bytes: it is binary, not text (binary files are refused).");
  return text;
}

/**
 * A knowledge upload: text as readTextBody reads it, or a PDF (`application/pdf`, at most HINTLINE_MAX_ATTACHMENT_BYTES)
 * as its extracted text with its page count, as chat attachments are read. A PDF without a text layer is refused: it
 * holds nothing to read or search.
 */
export async function readKnowledgeBody(
  request: Request,
  { maxBytes, limitName, name }: { maxBytes: number; limitName: string; name: string },
): Promise<string> {
  const type = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (type !== "application/pdf") return readTextBody(request, { maxBytes, limitName });
  const limit = attachmentLimits().maxBytes;
  let bytes: Uint8Array;
  try {
    bytes = await readBytes(request, { maxBytes: limit });
  } catch (error) {
    if (error instanceof ApiError && error.code === "payload_too_large") {
      throw new ApiError(
        "payload_too_large",
        `A PDF knowledge file may be at most ${formatBytes(limit)} ${operatorNote(" (HINTLINE_MAX_ATTACHMENT_BYTES)", "")}; this one is larger.`,
      );
    }
    throw error;
  }
  if (String.fromCharCode(...bytes.subarray(0, 5)) !== "%PDF-")
    throw new ApiError("bad_request", `${name} is not a PDF file (its bytes do not start as one does).`);
  const pdf = await readPdfText(bytes, name);
  const count = `${pdf.pages.length} page${pdf.pages.length === 1 ? "" : "s"}`;
  if (pdf.pages.every((page) => page.trim() === "")) {
    throw new ApiError(
      "bad_request",
      `${name} (${count}) has no text layer (a scan or only images): there is no text to keep as knowledge.`,
    );
  }
  return `Text extracted from the PDF ${JSON.stringify(name)} (${count}):\n\n${pdfPagesText(pdf)}\n`;
}
