// Pure: what the browser does with a file dropped or picked for the knowledge folder — read it as UTF-8 text, or
// say in words why not (binary, not UTF-8, too large) before anything is sent. A PDF is sent as it is: the server keeps
// its extracted text.
import { MAX_KNOWLEDGE_FILE_BYTES } from "@/lib/agent/workspace-limits";

export const ACCEPTED_TYPES_TEXT =
  "Text files: plain text, Markdown, code, CSV, JSON (UTF-8, up to 1 MiB each), and PDFs (up to 8 MiB; their text is kept). Images and other binary files are not supported.";

/** For the file picker: the usual text extensions (any other file is still checked by its content). */
export const ACCEPT_ATTRIBUTE =
  ".pdf,application/pdf,.txt,.md,.markdown,.csv,.tsv,.json,.jsonl,.yaml,.yml,.toml,.xml,.html,.css,.js,.mjs,.cjs,.ts,.tsx,.jsx,.py,.rb,.go,.rs,.java,.kt,.c,.h,.cpp,.hpp,.cs,.php,.swift,.sh,.sql,.ini,.cfg,.conf,.log,.env,text/*,application/json";

const BINARY_KINDS: Array<[RegExp, string]> = [
  [/\.(png|jpe?g|gif|webp|bmp|ico|heic|tiff?)$/i, "an image: only text files can be knowledge files"],
  [/\.(zip|gz|tgz|bz2|xz|7z|rar|tar)$/i, "an archive: unpack it and upload its text files"],
  [
    /\.(docx?|xlsx?|pptx?|odt|ods|odp|rtf|pages|numbers|key)$/i,
    "an office document: save it as plain text, Markdown or CSV first",
  ],
  [/\.(exe|dll|so|dylib|bin|wasm|class|jar|o|a)$/i, "a program or binary file: only text files can be knowledge files"],
  [/\.(mp3|wav|ogg|flac|m4a|mp4|mov|avi|mkv|webm)$/i, "audio or video: only text files can be knowledge files"],
];

const formatBytes = (n: number) =>
  n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 / 1024).toFixed(2)} MiB`;
export { formatBytes };

export type TextFileResult = { ok: true; text: string } | { ok: false; error: string };

export const MAX_PDF_BYTES = 8 * 1024 * 1024;

export const isPdfName = (name: string) => /\.pdf$/i.test(name);

/** A PDF to upload as it is, or why it is refused (too large, not a PDF), in words that name the file. */
export function checkPdfFile(name: string, bytes: Uint8Array): { ok: true } | { ok: false; error: string } {
  if (bytes.length > MAX_PDF_BYTES)
    return {
      ok: false,
      error: `“${name}” is ${formatBytes(bytes.length)}: a PDF knowledge file may be at most 8 MiB.`,
    };
  if (String.fromCharCode(...bytes.subarray(0, 5)) !== "%PDF-")
    return { ok: false, error: `“${name}” is named .pdf but is not a PDF file.` };
  return { ok: true };
}

/** The file's text, or why it is refused, in words that name the file. */
export function readTextFile(name: string, bytes: Uint8Array): TextFileResult {
  const kind = BINARY_KINDS.find(([pattern]) => pattern.test(name));
  if (kind) return { ok: false, error: `“${name}” is ${kind[1]}.` };
  if (bytes.length > MAX_KNOWLEDGE_FILE_BYTES) {
    return {
      ok: false,
      error: `“${name}” is ${formatBytes(bytes.length)}: a knowledge file may hold at most 1 MiB of text.`,
    };
  }
  if (bytes.includes(0)) return { ok: false, error: `“${name}” holds NUL bytes: it is a binary file, not text.` };
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, error: `“${name}” is not UTF-8 text: save it as UTF-8 (or it is a binary file).` };
  }
  return { ok: true, text };
}

/** The knowledge path a file is stored under: its own name, with characters a path may not hold made safe. */
export function knowledgePathFor(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? name;
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return cleaned === "." || cleaned === ".." || !cleaned ? "file.txt" : cleaned.slice(0, 255);
}

/** The URL of a knowledge file, each folder and file name encoded on its own. */
export function knowledgeUrl(workspaceId: string, path: string): string {
  return `/api/workspaces/${encodeURIComponent(workspaceId)}/knowledge/${path.split("/").map(encodeURIComponent).join("/")}`;
}
