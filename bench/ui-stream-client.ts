// Posts to a route answering with an AI SDK UI message stream (SSE) and times it as a browser would see it: from the
// moment the POST is sent to the first `text-delta` event, and the text-delta rate after that.
import { performance } from "node:perf_hooks";

export type StreamResult = {
  status: number;
  /** POST sent → first text-delta event read (ms); NaN when none arrived. */
  ttftMs: number;
  /** POST sent → end of the stream (ms). */
  totalMs: number;
  /** First → last text-delta event (ms). */
  deltaSpanMs: number;
  chars: number;
  deltas: number;
  finished: boolean;
  error?: string;
  /** The `data-context-usage` figure Hintline streams (the next input's size), when it sent one. */
  contextTokens?: number;
  triggerTokens?: number;
  compressed: boolean;
};

type Chunk = {
  type?: string;
  delta?: string;
  errorText?: string;
  data?: { inputTokens?: number; triggerTokens?: number };
};

export async function postStream(url: string, body: unknown): Promise<StreamResult> {
  const payload = JSON.stringify(body);
  const result: StreamResult = {
    status: 0,
    ttftMs: Number.NaN,
    totalMs: 0,
    deltaSpanMs: 0,
    chars: 0,
    deltas: 0,
    finished: false,
    compressed: false,
  };
  const start = performance.now();
  let lastDelta = start;
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: payload,
    });
    result.status = response.status;
    if (!response.ok || !response.body) {
      result.error = `HTTP ${response.status}: ${(await response.text()).slice(0, 200)}`;
      return result;
    }
    const decoder = new TextDecoder();
    let buffer = "";
    for await (const bytes of response.body) {
      const now = performance.now();
      buffer += decoder.decode(bytes as Uint8Array, { stream: true });
      let end = buffer.indexOf("\n\n");
      while (end >= 0) {
        const event = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        end = buffer.indexOf("\n\n");
        if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
        const chunk = JSON.parse(event.slice(6)) as Chunk;
        if (chunk.type === "text-delta") {
          if (result.deltas === 0) result.ttftMs = now - start;
          result.deltas++;
          result.chars += chunk.delta?.length ?? 0;
          lastDelta = now;
        } else if (chunk.type === "finish") result.finished = true;
        else if (chunk.type === "error") result.error = chunk.errorText ?? "error event";
        else if (chunk.type === "data-compression") result.compressed = true;
        else if (chunk.type === "data-context-usage" && result.contextTokens === undefined) {
          result.contextTokens = chunk.data?.inputTokens;
          result.triggerTokens = chunk.data?.triggerTokens;
        }
      }
    }
    if (!result.finished && !result.error) result.error = "stream ended without a finish event";
  } catch (error) {
    result.error = String(error);
  }
  result.totalMs = performance.now() - start;
  if (result.deltas > 0) result.deltaSpanMs = lastDelta - start - result.ttftMs;
  return result;
}

/** Sends a JSON body and returns the parsed JSON answer (throws on a non-2xx status). */
export async function postJson<T>(url: string, body: unknown): Promise<T> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${url}: HTTP ${response.status} ${text.slice(0, 300)}`);
  return JSON.parse(text) as T;
}
