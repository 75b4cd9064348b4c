// A person's message with attachments, checked and made ready to store (chat and import alike): the count and each
// part's kind, data URL and size (lib/agent/attachments.ts); a PDF's text extracted here, once, and kept on its part so
// that every later conversion of the message is the same model input, and a text file's text kept beside its data URL
// for search. Any problem is a 400 naming the part.
import {
  checkAttachment,
  decodeText,
  type FileUIPartLike,
  formatBytes,
  hasImage,
  isFilePart,
} from "../agent/attachments.ts";
import { takesImages } from "../ai/context-windows.ts";
import { attachmentLimits, MAX_MESSAGE_TEXT, maxChatBodyBytes } from "../api/body-limits.mjs";
import { ApiError } from "../api/errors.ts";
import { readPdfText } from "./pdf-text.ts";
import { operatorNote } from "../operator-words.ts";

// HINTLINE_MAX_ATTACHMENTS and HINTLINE_MAX_ATTACHMENT_BYTES, and the chat body they make room for.
export { attachmentLimits, maxChatBodyBytes };

/** The 413 of a chat body over maxChatBodyBytes, naming what it may hold. */
export function chatBodyTooLarge(): string {
  const { maxCount, maxBytes } = attachmentLimits();
  const count = (n: number) => n.toLocaleString("en-US");
  return `A chat message may hold ${count(MAX_MESSAGE_TEXT)} characters of text and ${maxCount} attachment${maxCount === 1 ? "" : "s"} of ${formatBytes(maxBytes)}${operatorNote(" (HINTLINE_MAX_ATTACHMENTS, HINTLINE_MAX_ATTACHMENT_BYTES)", "")}, at most ${count(maxChatBodyBytes())} bytes of JSON; this body is larger.`;
}

type PartLike = { type: string; [key: string]: unknown };

/**
 * The parts of a person's message as they are stored: each file part checked and rebuilt from its known fields (a
 * client's own providerMetadata is dropped), a PDF's extracted text added. `field` names the parts in errors
 * ("message.parts").
 */
export async function prepareAttachments<P extends PartLike>(parts: readonly P[], field: string): Promise<P[]> {
  const files = parts.filter((p) => isFilePart(p));
  if (files.length === 0) return [...parts];
  const limits = attachmentLimits();
  if (files.length > limits.maxCount) {
    throw new ApiError(
      "bad_request",
      `Invalid ${field}: ${files.length} attachments, over the ${limits.maxCount} a message may hold${operatorNote(" (HINTLINE_MAX_ATTACHMENTS)", "")}.`,
      field,
    );
  }
  const out: P[] = [];
  for (const [index, part] of parts.entries()) {
    if (!isFilePart(part)) {
      out.push(part);
      continue;
    }
    const file = part as unknown as FileUIPartLike;
    const where = `${field}.${index}`;
    const label =
      typeof file.filename === "string" && file.filename ? `${where} ("${file.filename.slice(0, 80)}")` : where;
    const checked = checkAttachment(file, limits);
    if (typeof checked === "string")
      throw new ApiError("bad_request", `Invalid ${label}: the attachment ${checked}.`, where);
    const stored: FileUIPartLike = { type: "file", mediaType: checked.mediaType, url: file.url };
    if (checked.filename) stored.filename = checked.filename;
    if (checked.kind === "pdf") {
      const pdf = await readPdfText(checked.bytes, `Invalid ${label}: the attachment`);
      stored.providerMetadata = { hintline: { pages: pdf.pages } };
    }
    // Kept as text so that search finds it (the index reads it; a data URL is base64).
    if (checked.kind === "text") stored.providerMetadata = { hintline: { text: decodeText(checked.bytes) ?? "" } };
    out.push(stored as unknown as P);
  }
  return out;
}

/** Refuses a message with an image for a model that takes no images, naming the model and what to do. */
export function checkImagesAccepted(parts: readonly { type: string; mediaType?: unknown }[], modelId: string): void {
  if (!hasImage(parts) || takesImages(modelId)) return;
  throw new ApiError(
    "bad_request",
    `The model ${modelId} does not take images, so the image attachment was not sent. Switch to a model that does (e.g. gpt-4o, Claude, Gemini), or attach text instead.${operatorNote(" (An image model unknown to Hintline can be named in HINTLINE_IMAGE_MODELS.)", "")}`,
    "message.parts",
  );
}
