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

/** Reads a UI message stream in two goes: up to a chunk, then the rest (nothing read is lost in between). */
export function chunkReader(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const chunks: StreamChunk[] = [];
  let buffer = "";
  let position = 0;
  const pump = async (stop: () => boolean): Promise<void> => {
    while (!stop()) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const lines = buffer.split("\n");
      buffer = lines.pop() ?? "";
      for (const line of lines) if (line.startsWith("data: ") && line !== "data: [DONE]") chunks.push(JSON.parse(line.slice(6)));
    }
  };
  return {
    chunks,
    until: async (match: (c: StreamChunk) => boolean) => {
      await pump(() => chunks.slice(position).some(match));
      position = chunks.length;
    },
    rest: async () => {
      await pump(() => false);
      return chunks;
    },
  };
}

/**
 * Reads server-sent events from GET /api/events into `events` until `close` is called. `opened` resolves with the
 * response's content type once the first comment (the server's "connected") has come.
 */
export function listenToEvents(url: string): { events: Array<{ type: string; id: string }>; comments: string[]; close: () => void; opened: Promise<string | null> } {
  const events: Array<{ type: string; id: string }> = [];
  const comments: string[] = [];
  const controller = new AbortController();
  let resolveOpened!: (contentType: string | null) => void;
  const opened = new Promise<string | null>((resolve) => (resolveOpened = resolve));
  void (async () => {
    const response = await fetch(`${url}/api/events`, { signal: controller.signal });
    const contentType = response.headers.get("content-type");
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffer += decoder.decode(value, { stream: true });
      const blocks = buffer.split("\n\n");
      buffer = blocks.pop() ?? "";
      for (const block of blocks) {
        if (block.startsWith(":")) {
          comments.push(block);
          resolveOpened(contentType);
        } else if (block.startsWith("data: ")) events.push(JSON.parse(block.slice(6)));
      }
    }
  })().catch(() => {});
  return { events, comments, close: () => controller.abort(), opened };
}
