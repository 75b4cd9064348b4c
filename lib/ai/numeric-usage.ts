// A provider's event stream with every usage figure that is not a number turned into null. The Chat Completions
// chunk schema refuses a whole chunk over one such figure ("prompt_tokens": "12"), and with it a reply that was fine;
// Hintline ignores implausible figures anyway (lib/chat/reply/run.ts) and counts locally instead.

const USAGE_KEY = '"usage"';

type Json = Record<string, unknown>;

/** Non-numbers (and numbers JSON.parse made infinite) become null, in the usage object and its detail objects. */
function cleanUsage(usage: Json): boolean {
  let changed = false;
  for (const [key, value] of Object.entries(usage)) {
    if (value === null || (typeof value === "number" && Number.isFinite(value))) continue;
    if (typeof value === "object" && !Array.isArray(value)) {
      changed = cleanUsage(value as Json) || changed;
      continue;
    }
    usage[key] = null;
    changed = true;
  }
  return changed;
}

function cleanLine(line: string): string {
  if (!line.startsWith("data:") || !line.includes(USAGE_KEY)) return line;
  try {
    const event = JSON.parse(line.slice(5)) as Json | null;
    const usage = event?.usage;
    if (usage === undefined || usage === null) return line;
    if (typeof usage !== "object" || Array.isArray(usage)) {
      (event as Json).usage = null;
      return `data: ${JSON.stringify(event)}`;
    }
    return cleanUsage(usage as Json) ? `data: ${JSON.stringify(event)}` : line;
  } catch {
    return line; // not JSON: the provider's parser reports it
  }
}

const cleanLines = (text: string) => text.split("\n").map(cleanLine).join("\n");

/** `response` with its event stream's usage figures cleaned; any other response as it is. */
export function withNumericUsage(response: Response): Response {
  const type = response.headers.get("content-type") ?? "";
  if (!response.ok || !response.body || !type.includes("text/event-stream")) return response;
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  let pending = ""; // the start of a line not yet complete
  const body = response.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        const text = decoder.decode(chunk, { stream: true });
        // Looked for in the new text only, so one very long line costs linear time.
        const lineEnd = text.lastIndexOf("\n");
        if (lineEnd === -1) {
          pending += text;
          return;
        }
        const complete = pending + text.slice(0, lineEnd + 1);
        pending = text.slice(lineEnd + 1);
        controller.enqueue(encoder.encode(cleanLines(complete)));
      },
      flush(controller) {
        pending += decoder.decode();
        if (pending) controller.enqueue(encoder.encode(cleanLines(pending)));
      },
    }),
  );
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
