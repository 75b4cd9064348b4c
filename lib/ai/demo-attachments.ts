// The demo model's answer to a message with attachments: it says what it received, deterministically, from the model
// input itself (an image's label and file part, a text file's text, a PDF's pages or its missing text layer).
import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { ATTACHED_FILE_PREFIX, ATTACHED_IMAGE_PREFIX, ATTACHED_PDF_PREFIX } from "../agent/attachments.ts";
import { lineCount } from "../text-lines.ts";

type Part = Exclude<LanguageModelV4Prompt[number]["content"], string>[number];

const isAttachmentText = (text: string) =>
  text.startsWith(ATTACHED_FILE_PREFIX) ||
  text.startsWith(ATTACHED_IMAGE_PREFIX) ||
  text.startsWith(ATTACHED_PDF_PREFIX);

/** The person's own words in a message's parts (the texts that carry attachments left out). */
export function personWords(parts: readonly Part[]): string {
  return parts.flatMap((p) => (p.type === "text" && !isAttachmentText(p.text) ? [p.text] : [])).join("\n");
}

const clip = (text: string, max = 80) => {
  const line = text.trim().replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max)}…` : line;
};

function ackLine(header: string, body: string, parts: readonly Part[], index: number): string {
  if (header.startsWith(ATTACHED_IMAGE_PREFIX)) {
    const next = parts[index + 1];
    const seen = next?.type === "file" && next.mediaType.startsWith("image/");
    return `I received image ${header.slice(ATTACHED_IMAGE_PREFIX.length).replace(/:$/, "")}${seen ? "" : ", but not its pixels"}.`;
  }
  if (header.startsWith(ATTACHED_PDF_PREFIX)) {
    const what = header.slice(ATTACHED_PDF_PREFIX.length).replace(/:$/, "");
    if (!body)
      return `I received the PDF ${what.replace(/: it has no text layer.*$/, "")}${/no text layer/.test(what) ? ", but it has no text layer, so I can't read its text" : ""}.`;
    const first = /--- Page 1 ---\n([^\n]*)/.exec(body)?.[1] ?? "";
    return `I received the PDF ${what}; page 1 begins “${clip(first)}”.`;
  }
  const what = header.slice(ATTACHED_FILE_PREFIX.length).replace(/:$/, "");
  const lines = lineCount(body);
  return `I received the text file ${what}: ${lines} line${lines === 1 ? "" : "s"}, beginning “${clip(body.split("\n")[0] ?? "")}”.`;
}

/** What the demo says about the attachments of the person's latest message, or undefined when it has none. */
export function attachmentAck(content: LanguageModelV4Prompt[number]["content"] | undefined): string | undefined {
  if (!content || typeof content === "string") return undefined;
  const parts = content as readonly Part[];
  const lines: string[] = [];
  parts.forEach((part, i) => {
    if (part.type !== "text" || !isAttachmentText(part.text)) return;
    const cut = part.text.indexOf("\n\n");
    const header = cut < 0 ? part.text : part.text.slice(0, cut);
    lines.push(`- ${ackLine(header, cut < 0 ? "" : part.text.slice(cut + 2), parts, i)}`);
  });
  if (!lines.length) return undefined;
  const words = personWords(parts).trim();
  return `${lines.join("\n")}${words ? `\n\nYou said: “${clip(words, 200)}”.` : ""}`;
}
