// A minimal client of the app's HTTP API for tests: send a chat message and read the UI message stream.
import { generateId } from "ai";

export type StreamChunk = { type: string; [key: string]: unknown };

/** Parses an AI SDK UI message stream (SSE `data: {...}` events) into its chunks. */
export async function readChunks(response: Response): Promise<StreamChunk[]> {
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data: ") && line !== "data: [DONE]")
    .map((line) => JSON.parse(line.slice(6)) as StreamChunk);
}

export function streamedText(chunks: StreamChunk[]): string {
  return chunks
    .filter((c) => c.type === "text-delta")
    .map((c) => c.delta as string)
    .join("");
}

export async function postChat(
  baseUrl: string,
  {
    conversationId,
    text,
    messageId = generateId(),
    timezone,
    headers = {},
    signal,
  }: { conversationId: string; text: string; messageId?: string; timezone?: string; headers?: Record<string, string>; signal?: AbortSignal },
): Promise<Response> {
  return fetch(`${baseUrl}/api/chat`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({
      id: conversationId,
      message: { id: messageId, role: "user", parts: [{ type: "text", text }] },
      ...(timezone ? { timezone } : {}),
    }),
    signal,
  });
}

/** Sends a message and reads the whole reply. */
export async function chat(baseUrl: string, options: Parameters<typeof postChat>[1]) {
  const response = await postChat(baseUrl, options);
  const chunks = response.ok ? await readChunks(response) : [];
  return { response, chunks, text: streamedText(chunks) };
}

// biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
export async function getJson<T = any>(url: string, init?: RequestInit): Promise<{ status: number; body: T }> {
  const response = await fetch(url, init);
  const body = response.status === 204 ? undefined : await response.json().catch(() => undefined);
  return { status: response.status, body: body as T };
}

/** Presses Stop on a conversation's live reply, wherever it runs (POST /api/conversations/:id/stop). */
export async function stopReply(baseUrl: string, conversationId: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${baseUrl}/api/conversations/${conversationId}/stop`, { method: "POST", headers });
}
