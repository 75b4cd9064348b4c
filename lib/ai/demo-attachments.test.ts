import type { LanguageModelV4Prompt } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { ChatMessage } from "../chat-message.ts";
import { toModelMessages } from "../agent/to-model-messages.ts";
import { decide } from "./demo-model.ts";

const url = (type: string, data: string | Buffer) => `data:${type};base64,${Buffer.from(data).toString("base64")}`;

/** The demo's prompt for one stored person message, converted as the server converts it. */
function promptOf(parts: ChatMessage["parts"]): LanguageModelV4Prompt {
  const [message] = toModelMessages([{ id: "m", role: "user", parts }]);
  const content = typeof message!.content === "string" ? [{ type: "text", text: message!.content }] : message!.content;
  return [{ role: "user", content }] as LanguageModelV4Prompt;
}

describe("the demo model and attachments", () => {
  it("says what it received: an image, a text file, a PDF's pages, a PDF without a text layer", () => {
    const { text } = decide(
      promptOf([
        { type: "text", text: "What are these?" },
        {
          type: "file",
          mediaType: "image/png",
          url: url("image/png", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])),
          filename: "x.png",
        },
        { type: "file", mediaType: "text/csv", url: url("text/csv", "a,b\n1,2\n3,4\n"), filename: "t.csv" },
        {
          type: "file",
          mediaType: "application/pdf",
          url: url("application/pdf", "%PDF-"),
          filename: "r.pdf",
          providerMetadata: { hintline: { pages: ["Hello there", "More"] } },
        },
        {
          type: "file",
          mediaType: "application/pdf",
          url: url("application/pdf", "%PDF-"),
          filename: "s.pdf",
          providerMetadata: { hintline: { pages: [""] } },
        },
      ] as ChatMessage["parts"]),
    );
    expect(text).toBe(
      [
        '- I received image "x.png" (image/png, 8 B).',
        '- I received the text file "t.csv" (text/csv): 3 lines, beginning “a,b”.',
        '- I received the PDF "r.pdf" (2 pages); page 1 begins “Hello there”.',
        `- I received the PDF "s.pdf" (1 page), but it has no text layer, so I can't read its text.`,
        "",
        "You said: “What are these?”.",
      ].join("\n"),
    );
  });

  it("answers as before when there are no attachments", () => {
    expect(decide(promptOf([{ type: "text", text: "hello" }])).text).toMatch(/^Hello!/);
  });
});
