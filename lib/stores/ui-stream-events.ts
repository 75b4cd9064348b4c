// The chunks of a UI message stream's body (server-sent events, `data: {json}` each), for the browser's chat: the
// event parsing of the SSE spec (lines end in LF, CRLF or CR; `data:` lines join with LF; comments and other fields
// are skipped; an event ends at a blank line, and one left unfinished at the end is dropped), each event's JSON read
// as the AI SDK reads it (prototype keys refused, `[DONE]` skipped). Pure apart from reading the body it is given.
import type { UIMessageChunk } from "ai";
import { secureJsonParse } from "./secure-json";

/** The events of an SSE text, fed in pieces: `push` returns the data of each event the piece completed. */
export class SseEvents {
  private buffer = "";
  private data: string[] = [];
  /** A CR ended the last piece: an LF at the start of the next one belongs to it. */
  private pendingCr = false;

  push(text: string): string[] {
    let input = text;
    if (this.pendingCr && input.startsWith("\n")) input = input.slice(1);
    this.pendingCr = false;
    this.buffer += input;
    const events: string[] = [];
    const lines = this.buffer.split(/\r\n|\r|\n/);
    // The last piece has no line end yet, unless the text ended with one (then it is "").
    this.buffer = lines.pop() ?? "";
    if (this.buffer === "" && input.endsWith("\r")) this.pendingCr = true;
    for (const line of lines) {
      if (line === "") {
        if (this.data.length > 0) events.push(this.data.join("\n"));
        this.data = [];
      } else if (line === "data" || line.startsWith("data:")) {
        const value = line.slice(5);
        this.data.push(value.startsWith(" ") ? value.slice(1) : value);
      }
      // Comments (":…") and other fields (event, id, retry) carry nothing the chat reads.
    }
    return events;
  }
}

/** One event's JSON as a chunk: an object with a string `type`, or an error naming what came instead. */
export function chunkOf(data: string): UIMessageChunk {
  let value: unknown;
  try {
    value = secureJsonParse(data);
  } catch (error) {
    throw new Error(`The reply stream sent a chunk that is not JSON: ${(error as Error).message}`);
  }
  if (!value || typeof value !== "object" || typeof (value as { type?: unknown }).type !== "string")
    throw new Error(`The reply stream sent a chunk without a type: ${data.slice(0, 120)}`);
  return value as UIMessageChunk;
}

/** The chunks of a UI message stream's body, as they arrive (ends when the body does; throws when it fails). */
export async function* uiMessageChunks(body: ReadableStream<Uint8Array>): AsyncGenerator<UIMessageChunk> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const events = new SseEvents();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      const text = done ? decoder.decode() : decoder.decode(value, { stream: true });
      for (const data of events.push(text)) if (data !== "[DONE]") yield chunkOf(data);
      if (done) return;
    }
  } finally {
    // An early return (Stop) or a failure cancels the body: the request ends with the reader.
    await reader.cancel().catch(() => {});
  }
}
