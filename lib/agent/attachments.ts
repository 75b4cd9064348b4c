// Attachments on a person's message: AI SDK file parts `{ type: "file", mediaType, url: data URL, filename? }`.
// Pure rules: which kinds are taken, how a part is checked (well-formed base64 data URL, size, the bytes matching the
// kind), and how a stored part becomes model input — deterministically, so a conversation's model input stays a
// prefix-extension of the previous call's. Images go as file parts; text files as their text; PDFs as the text the
// server extracted when the message arrived (kept on the part, so converting needs no extractor).
import type { FilePart, TextPart } from "ai";
import { neutralizeHintTags } from "./hints/neutralize-tags.ts";
import { operatorNote } from "../operator-words.ts";

export const IMAGE_TYPES = ["image/png", "image/jpeg", "image/gif", "image/webp"] as const;
export const PDF_TYPE = "application/pdf";
/** Media types read as UTF-8 text besides text/*. */
const TEXT_APPLICATION_TYPES = new Set([
  "application/json",
  "application/ld+json",
  "application/xml",
  "application/yaml",
  "application/x-yaml",
  "application/toml",
  "application/javascript",
  "application/typescript",
  "application/x-sh",
  "application/sql",
  "application/csv",
  "application/x-ndjson",
]);

/** The most text one attachment may bring (a text file, or a PDF's extracted text). */
export const MAX_ATTACHMENT_TEXT_CHARS = 400_000;
/** The meter's estimate for one image (what OpenAI charges a 512×512 tile plus the base, at "high" detail). */
export const IMAGE_TOKEN_ESTIMATE = 765;
export const MAX_FILENAME_CHARS = 255;

/** Opening words of the text that carries an attachment to the model (the demo model reads them). */
export const ATTACHED_FILE_PREFIX = "Attached file ";
export const ATTACHED_PDF_PREFIX = "Attached PDF ";
export const ATTACHED_IMAGE_PREFIX = "Attached image ";

export type AttachmentKind = "image" | "text" | "pdf";

/** The extracted text of a PDF, stored on its part as `providerMetadata.hintline` (written by the server only). */
export type PdfText = { pages: string[] };

export type FileUIPartLike = {
  type: "file";
  mediaType: string;
  url: string;
  filename?: string;
  providerMetadata?: Record<string, unknown>;
};

export type AttachmentLimits = { maxCount: number; maxBytes: number };

export function attachmentKind(mediaType: string): AttachmentKind | null {
  const type = mediaType.toLowerCase();
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return "image";
  if (type === PDF_TYPE) return "pdf";
  if (/^text\/[a-z0-9.+-]+$/.test(type) || TEXT_APPLICATION_TYPES.has(type)) return "text";
  return null;
}

export function isFilePart(part: { type: string }): part is FileUIPartLike {
  return part.type === "file";
}

/** "12 B", "3.4 KB", "8.0 MB" (1 KB = 1,024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

const DATA_URL_HEAD = /^data:([^,;]*)((?:;[^,;]*)*);base64,/;

/**
 * The base64 payload of a well-formed `data:<type>;base64,…` URL and its bytes, or null. The payload is checked by
 * decoding it (8 ms for 8 MiB; a regular expression over it took 28 ms, and decoding it a character at a time 45 ms).
 */
export function dataUrlBase64(url: string): { mediaType: string; base64: string; bytes: Uint8Array } | null {
  const head = DATA_URL_HEAD.exec(url);
  if (!head) return null;
  const base64 = url.slice(head[0].length);
  const bytes = decodeBase64(base64);
  return bytes ? { mediaType: head[1]!.toLowerCase(), base64, bytes } : null;
}

/** Decoded size of a base64 text (its padding taken off). */
export function base64Bytes(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

const MAGIC: Record<string, (b: Uint8Array) => boolean> = {
  "image/png": (b) => b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47,
  "image/jpeg": (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff,
  "image/gif": (b) => b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38,
  "image/webp": (b) =>
    String.fromCharCode(...b.subarray(0, 4)) === "RIFF" && String.fromCharCode(...b.subarray(8, 12)) === "WEBP",
  "application/pdf": (b) => String.fromCharCode(...b.subarray(0, 5)) === "%PDF-",
};

/** The bytes of a base64 text (the standard alphabet, padded to a multiple of 4), or null when it is not one. */
export function decodeBase64(base64: string): Uint8Array | null {
  if (base64.length % 4 !== 0) return null;
  const bytes = Buffer.from(base64, "base64");
  // Buffer skips what is not base64 (so fewer bytes come out) but takes the URL-safe alphabet's - and _ too.
  return bytes.length === base64Bytes(base64) && !base64.includes("-") && !base64.includes("_") ? bytes : null;
}

/** A text attachment's text, or null when its bytes are not UTF-8 text (invalid sequences or a NUL). */
export function decodeText(bytes: Uint8Array): string | null {
  try {
    const text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
    return text.includes("\u0000") ? null : text;
  } catch {
    return null;
  }
}

export type CheckedAttachment = { kind: AttachmentKind; mediaType: string; bytes: Uint8Array; filename?: string };

const LABEL_TYPES = "images (PNG, JPEG, GIF, WebP), PDFs and text files (plain text, Markdown, CSV, JSON…)";

/**
 * Checks one file part as a person sent it. Returns the decoded attachment, or the problem in words (the caller names
 * the part). Text files must be UTF-8 and within MAX_ATTACHMENT_TEXT_CHARS; the PDF's text is read by the caller.
 */
export function checkAttachment(part: FileUIPartLike, limits: AttachmentLimits): CheckedAttachment | string {
  const mediaType = typeof part.mediaType === "string" ? part.mediaType.trim().toLowerCase() : "";
  const kind = attachmentKind(mediaType);
  if (!kind) return `has type "${mediaType.slice(0, 80)}", which Hintline does not take; attach ${LABEL_TYPES}`;
  if (part.filename !== undefined) {
    if (typeof part.filename !== "string" || part.filename.length > MAX_FILENAME_CHARS)
      return `has a filename over ${MAX_FILENAME_CHARS} characters`;
    if (/[\u0000-\u001f\u007f]/.test(part.filename))
      return "has a filename with control characters (line breaks, tabs…)";
  }
  if (typeof part.url !== "string" || !part.url.startsWith("data:"))
    return "must carry its content as a data: URL (data:<type>;base64,…)";
  const maxUrl = 64 + Math.ceil(limits.maxBytes / 3) * 4 + 256;
  if (part.url.length > maxUrl)
    return `is over the ${formatBytes(limits.maxBytes)} limit per attachment${operatorNote(" (HINTLINE_MAX_ATTACHMENT_BYTES)", "")}`;
  const data = dataUrlBase64(part.url);
  if (!data) return "has a data URL that is not well-formed base64 (expected data:<type>;base64,<base64>)";
  if (data.mediaType && data.mediaType !== mediaType)
    return `says it is ${mediaType} but its data URL says ${data.mediaType.slice(0, 80)}`;
  const size = base64Bytes(data.base64);
  if (size === 0) return "is empty";
  if (size > limits.maxBytes) {
    return `is ${formatBytes(size)}, over the ${formatBytes(limits.maxBytes)} limit per attachment${operatorNote(" (HINTLINE_MAX_ATTACHMENT_BYTES)", "")}`;
  }
  const { bytes } = data;
  const magic = MAGIC[mediaType];
  if (magic && !magic(bytes))
    return `is not a ${kind === "pdf" ? "PDF" : mediaType.slice("image/".length).toUpperCase()} file (its bytes do not start as one does)`;
  if (kind === "text") {
    const text = decodeText(bytes);
    if (text === null) return "is not UTF-8 text (attach text files in UTF-8)";
    if (text.length > MAX_ATTACHMENT_TEXT_CHARS) {
      return `holds ${text.length.toLocaleString("en-US")} characters, over the ${MAX_ATTACHMENT_TEXT_CHARS.toLocaleString("en-US")} an attached text may hold`;
    }
  }
  return { kind, mediaType, bytes, filename: part.filename };
}

/** The stored PDF text of a part, when it is well-formed (stored data is read defensively). */
export function storedPdfText(part: FileUIPartLike): PdfText | null {
  const meta = (part.providerMetadata as { hintline?: { pages?: unknown } } | undefined)?.hintline;
  const pages = meta?.pages;
  return Array.isArray(pages) && pages.every((p) => typeof p === "string") ? { pages: pages as string[] } : null;
}

const quoted = (name: string | undefined, fallback: string) =>
  JSON.stringify(typeof name === "string" && name ? name : fallback);

/** The text that carries a PDF to the model: its page count and each page's text, or a note that it has no text layer. */
export function pdfModelText(filename: string | undefined, pdf: PdfText | null): string {
  const name = quoted(filename, "document.pdf");
  if (!pdf) return `${ATTACHED_PDF_PREFIX}${name}: its text could not be read.`;
  const count = `${pdf.pages.length} page${pdf.pages.length === 1 ? "" : "s"}`;
  if (pdf.pages.every((p) => p.trim() === "")) {
    return `${ATTACHED_PDF_PREFIX}${name} (${count}): it has no text layer (a scan or only images), so no text could be extracted from it.`;
  }
  return `${ATTACHED_PDF_PREFIX}${name} (${count}):\n\n${pdfPagesText(pdf)}`;
}

/** A PDF's text page by page, each under a `--- Page n ---` line. */
export function pdfPagesText(pdf: PdfText): string {
  return pdf.pages.map((text, i) => `--- Page ${i + 1} ---\n${text.trim() || "(no text on this page)"}`).join("\n\n");
}

/**
 * One stored file part as model input parts. Defensive about stored data: a part that no longer reads as an
 * attachment becomes a short note rather than breaking the conversation.
 */
export function attachmentModelParts(part: FileUIPartLike): Array<TextPart | FilePart> {
  const mediaType = typeof part.mediaType === "string" ? part.mediaType.toLowerCase() : "";
  const kind = attachmentKind(mediaType);
  const data = typeof part.url === "string" ? dataUrlBase64(part.url) : null;
  const text = (value: string): TextPart => ({ type: "text", text: neutralizeHintTags(value) });
  if (!kind || !data) return [text(`${ATTACHED_FILE_PREFIX}${quoted(part.filename, "file")} could not be read.`)];
  if (kind === "pdf") return [text(pdfModelText(part.filename, storedPdfText(part)))];
  if (kind === "text") {
    const decoded = decodeText(data.bytes);
    const body = decoded ?? "(not UTF-8 text)";
    return [text(`${ATTACHED_FILE_PREFIX}${quoted(part.filename, "file")} (${mediaType}):\n\n${body}`)];
  }
  const size = formatBytes(data.bytes.length);
  // Tagged as data: a bare string is first tried as a URL by the AI SDK, which took ~40 ms per 8 MiB image, twice a call.
  const file: FilePart = { type: "file", data: { type: "data", data: data.base64 }, mediaType };
  if (part.filename) file.filename = part.filename;
  return [text(`${ATTACHED_IMAGE_PREFIX}${quoted(part.filename, "image")} (${mediaType}, ${size}):`), file];
}

/** Does the message hold an image (what a model that takes no images cannot be sent)? */
export function hasImage(parts: readonly { type: string; mediaType?: unknown }[]): boolean {
  return parts.some(
    (p) => p.type === "file" && typeof p.mediaType === "string" && attachmentKind(p.mediaType) === "image",
  );
}
