// Reading the files a person attaches in the browser: the media type (from the file, else from its name), the checks
// the server makes that can be made here (kind, size, count — the server checks again), and the data URL it is sent as.
import { attachmentKind, formatBytes } from "@/lib/agent/attachments";

/** The server's defaults (HINTLINE_MAX_ATTACHMENTS, HINTLINE_MAX_ATTACHMENT_BYTES); it refuses anything over its own. */
export const MAX_ATTACHMENTS = 4;
export const MAX_ATTACHMENT_BYTES = 8 * 1024 * 1024;

/** What the file picker offers. */
export const ACCEPT =
  "image/png,image/jpeg,image/gif,image/webp,application/pdf,text/*,.md,.markdown,.csv,.json,.txt,.yaml,.yml,.toml,.log,.xml,.ts,.tsx,.js,.py,.sql,.sh";

const BY_EXTENSION: Record<string, string> = {
  md: "text/markdown",
  markdown: "text/markdown",
  txt: "text/plain",
  log: "text/plain",
  csv: "text/csv",
  json: "application/json",
  yaml: "application/yaml",
  yml: "application/yaml",
  toml: "application/toml",
  xml: "application/xml",
  html: "text/html",
  ts: "text/plain",
  tsx: "text/plain",
  js: "text/javascript",
  py: "text/x-python",
  sql: "application/sql",
  sh: "application/x-sh",
  pdf: "application/pdf",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

export type PendingAttachment = {
  key: string;
  type: "file";
  mediaType: string;
  filename: string;
  url: string;
  size: number;
};

/** A file's media type as Hintline takes it: the browser's when it names a kind Hintline takes, else by its extension. */
export function mediaTypeOf(file: { name: string; type: string }): string {
  const own = file.type.toLowerCase();
  if (own && attachmentKind(own)) return own;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? "";
  return BY_EXTENSION[extension] ?? own;
}

function readAsDataUrl(file: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("could not read the file"));
    reader.readAsDataURL(file);
  });
}

let keys = 0;

/**
 * The files as pending attachments, and a sentence for each one refused (kind, size, count); `held` is how many are
 * already pending.
 */
export async function readAttachments(
  files: readonly File[],
  held: number,
): Promise<{ added: PendingAttachment[]; errors: string[] }> {
  const added: PendingAttachment[] = [];
  const errors: string[] = [];
  for (const file of files) {
    const name = file.name || "pasted file";
    const mediaType = mediaTypeOf(file);
    if (!attachmentKind(mediaType)) {
      errors.push(`${name} can't be attached: Hintline takes images (PNG, JPEG, GIF, WebP), PDFs and text files.`);
    } else if (file.size === 0) {
      errors.push(`${name} is empty.`);
    } else if (file.size > MAX_ATTACHMENT_BYTES) {
      errors.push(
        `${name} is ${formatBytes(file.size)}, over the ${formatBytes(MAX_ATTACHMENT_BYTES)} limit per file.`,
      );
    } else if (held + added.length >= MAX_ATTACHMENTS) {
      errors.push(`${name} was not added: a message can hold at most ${MAX_ATTACHMENTS} attachments.`);
    } else {
      try {
        // The browser's data URL names the file's own type, which may be empty or generic: it is rewritten to the one sent.
        const url = (await readAsDataUrl(file)).replace(/^data:[^;,]*/, `data:${mediaType}`);
        added.push({ key: `a${++keys}`, type: "file", mediaType, filename: name, url, size: file.size });
      } catch {
        errors.push(`${name} could not be read.`);
      }
    }
  }
  return { added, errors };
}
