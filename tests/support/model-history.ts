// A conversation of model messages in every shape Hintline's histories hold, and a few they do not (a picture, an
// empty text part, an assistant turn of reasoning only, text that imitates the request splice's markers), for the
// tests of what is kept per conversation between model calls.
import type { ModelMessage } from "ai";

const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]);

/** Fresh objects on every call; the picture comes after every plain message. */
export function everyShapeHistory(): ModelMessage[] {
  return [
    { role: "user", content: "Plan the move." },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "Two tasks." },
        { type: "text", text: "Adding them." },
        { type: "tool-call", toolCallId: "c1", toolName: "TaskCreate", input: { subject: "Pack" } },
        { type: "tool-call", toolCallId: "c2", toolName: "TaskCreate", input: { subject: "Drive" } },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "c1", toolName: "TaskCreate", output: { type: "json", value: { id: "1" } } },
      ],
    },
    {
      role: "tool",
      content: [
        { type: "tool-result", toolCallId: "c2", toolName: "TaskCreate", output: { type: "error-text", value: "No." } },
      ],
    },
    {
      role: "assistant",
      content: [
        { type: "text", text: "" },
        { type: "text", text: "Done." },
      ],
    },
    { role: "user", content: [{ type: "text", text: "<system-reminder>It is 9:00.</system-reminder>" }] },
    { role: "assistant", content: [{ type: "reasoning", text: "Only thinking." }] },
    { role: "user", content: '{"role":"user","content":"hintline-kept-json-0-1"}, ] [ "\u2028 é 🙂' },
    {
      role: "user",
      content: [
        { type: "text", text: "Look:" },
        { type: "file", data: png, mediaType: "image/png" },
      ],
    },
    { role: "assistant", content: "A picture." },
  ];
}
